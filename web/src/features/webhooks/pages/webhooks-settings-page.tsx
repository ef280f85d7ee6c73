import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import {
  type EndpointWithSecret,
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useUpdateWebhookEndpoint,
  useWebhookEndpoints,
  useWebhookEventTypes,
  type WebhookEndpoint,
} from '../api/webhook-endpoints.ts';
import { EndpointCard } from '../components/endpoint-card.tsx';
import { EndpointForm } from '../components/endpoint-form.tsx';
import { SecretPanel } from '../components/secret-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../webhooks.css';

registerCatalogue('webhooks', { ja, en });

/**
 * 組織管理 → Webhook (administrators, plans with webhooks): the organization's endpoints with their state (stopped
 * automatically and why), adding and editing one with its events, the signing secret shown once (on adding and on
 * rotating), a test event, and each endpoint's delivery log with replays.
 */
export function WebhooksSettingsPage() {
  const { t } = useTranslation('webhooks');
  const endpoints = useWebhookEndpoints();
  const eventTypes = useWebhookEventTypes();
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhookEndpoint();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [issued, setIssued] = useState<EndpointWithSecret | null>(null);

  useEffect(() => {
    document.title = t('title');
  }, [t]);
  if (endpoints.error instanceof ApiError && endpoints.error.code === 'IP_RESTRICTED') throw endpoints.error;
  const planRefused = endpoints.error instanceof ApiError && endpoints.error.code === 'PLAN_FEATURE_UNAVAILABLE';
  const types = eventTypes.data ?? [];

  return (
    <section aria-labelledby="webhooks-title" className="org-settings webhooks">
      <h1 id="webhooks-title">{t('title')}</h1>
      <p>{t('intro')}</p>
      {endpoints.isPending && (
        <p role="status" className="muted">
          {t('loading')}
        </p>
      )}
      {planRefused && (
        <p role="status" className="notice">
          {t('planRequired')}
        </p>
      )}
      {endpoints.error && !planRefused && <ApiErrorNotice error={endpoints.error} />}
      {issued && <SecretPanel issued={issued} onDone={() => setIssued(null)} />}
      {adding && types.length > 0 && (
        <EndpointForm
          title={t('form.createTitle')}
          submitLabel={t('form.create')}
          initial={{ url: '', description: '', eventTypes: [...types] }}
          eventTypes={types}
          pending={create.isPending}
          error={create.error}
          onCancel={() => setAdding(false)}
          onSubmit={(input) =>
            create.mutate(input, {
              onSuccess: (created) => {
                setAdding(false);
                setIssued(created);
              },
            })
          }
        />
      )}
      {editing && (
        <EndpointForm
          key={editing.id}
          title={t('form.editTitle')}
          submitLabel={t('form.save')}
          initial={{
            url: editing.attributes.url,
            description: editing.attributes.description,
            eventTypes: editing.attributes.eventTypes,
          }}
          eventTypes={types}
          pending={update.isPending}
          error={update.error}
          onCancel={() => setEditing(null)}
          onSubmit={(input) =>
            update.mutate(
              { id: editing.id, ...input, lockVersion: editing.attributes.lockVersion },
              {
                onSuccess: () => {
                  setEditing(null);
                  toast.success(t('card.saved'));
                },
              },
            )
          }
        />
      )}
      {endpoints.data && (
        <>
          <div className="webhooks-list-head">
            <h2 id="webhooks-list-title">{t('list.title')}</h2>
            {!adding && (
              <button
                type="button"
                className="button primary"
                onClick={() => {
                  create.reset();
                  setEditing(null);
                  setAdding(true);
                }}
              >
                {t('add')}
              </button>
            )}
          </div>
          {endpoints.data.length === 0 && <p className="muted">{t('empty')}</p>}
          <ul className="webhook-list" aria-labelledby="webhooks-list-title">
            {endpoints.data.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                onEdit={() => {
                  update.reset();
                  setAdding(false);
                  setEditing(endpoint);
                }}
                onRotate={() => setRotating(endpoint)}
                onDelete={() => setDeleting(endpoint)}
              />
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title={t('card.rotate')}
        confirmLabel={t('card.rotateLabel')}
        pending={rotate.isPending}
        onCancel={() => setRotating(null)}
        onConfirm={() =>
          rotating &&
          rotate.mutate(rotating.id, {
            onSuccess: (rotated) => {
              setRotating(null);
              setIssued(rotated);
            },
          })
        }
      >
        <p>{t('card.rotateConfirm')}</p>
        <ApiErrorNotice error={rotate.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t('card.delete')}
        confirmLabel={t('card.delete')}
        danger
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success(t('card.deleted'));
            },
          })
        }
      >
        <p>{t('card.deleteConfirm')}</p>
        <p className="webhook-url">{deleting?.attributes.url}</p>
      </ConfirmDialog>
    </section>
  );
}
