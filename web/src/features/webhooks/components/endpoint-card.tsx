import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { useSendWebhookTest, useUpdateWebhookEndpoint, type WebhookEndpoint } from '../api/webhook-endpoints.ts';
import { DeliveryLog } from './delivery-log.tsx';

interface Props {
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

/** One endpoint: its URL, state (and why it was stopped), the actions, and its delivery log on demand. */
export function EndpointCard({ endpoint, onEdit, onRotate, onDelete }: Props) {
  const { t, i18n } = useTranslation('webhooks');
  const [showLog, setShowLog] = useState(false);
  const test = useSendWebhookTest();
  const update = useUpdateWebhookEndpoint();
  const a = endpoint.attributes;
  const when = japanDateTimeFormat(i18n.language);
  const time = (value: string | null) => (value ? when.format(new Date(value)) : '');
  const state = a.enabled ? 'enabled' : (a.disabledReason ?? 'manual');
  const toggle = () =>
    update.mutate(
      { id: endpoint.id, enabled: !a.enabled, lockVersion: a.lockVersion },
      { onSuccess: () => toast.success(t(a.enabled ? 'card.disabled' : 'card.enabled')) },
    );

  return (
    <li className="webhook-card" data-testid="webhook-endpoint">
      <div className="webhook-card-head">
        <h3 className="webhook-url">{a.url}</h3>
        <span className={`badge ${a.enabled ? 'badge-ok' : 'badge-danger'}`}>{t(`status.${state}`)}</span>
      </div>
      <p className="muted">{a.description || t('card.noDescription')}</p>
      {state === 'automatic' && (
        <p role="alert" className="form-error">
          {t('card.automaticReason', { time: time(a.disabledAt) })}
        </p>
      )}
      {a.enabled && a.failingSince && (
        <p className="notice">{t('card.failingSince', { time: time(a.failingSince) })}</p>
      )}
      <ul className="webhook-facts">
        <li>{a.lastSuccessAt ? t('card.lastSuccess', { time: time(a.lastSuccessAt) }) : t('card.never')}</li>
        <li title={a.eventTypes.map((type) => t(`events.${type}`)).join('、')}>
          {t('card.events', { count: a.eventTypes.length })}
        </li>
        {a.previousSecretExpiresAt && new Date(a.previousSecretExpiresAt) > new Date() && (
          <li>{t('card.previousSecret', { time: time(a.previousSecretExpiresAt) })}</li>
        )}
      </ul>
      <div className="org-actions webhook-actions">
        <button
          type="button"
          className="button"
          disabled={!a.enabled || test.isPending}
          onClick={() =>
            test.mutate(endpoint.id, {
              onSuccess: () => {
                setShowLog(true);
                toast.success(t('card.testSent'));
              },
            })
          }
        >
          {t('card.test')}
        </button>
        <button type="button" className="button" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? t('card.hideLog') : t('card.showLog')}
        </button>
        <button type="button" className="button" onClick={onEdit}>
          {t('card.edit')}
        </button>
        <button type="button" className="button" onClick={onRotate}>
          {t('card.rotate')}
        </button>
        <button type="button" className={a.enabled ? 'button' : 'button primary'} onClick={toggle}>
          {a.enabled ? t('card.disable') : t('card.enable')}
        </button>
        <button type="button" className="button danger" onClick={onDelete}>
          {t('card.delete')}
        </button>
      </div>
      <ApiErrorNotice error={test.error ?? update.error} />
      {showLog && <DeliveryLog endpointId={endpoint.id} enabled={a.enabled} />}
    </li>
  );
}
