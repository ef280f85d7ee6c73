import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type ApiKey, type IssuedApiKey, useApiKeys, useRevokeApiKey, useRotateApiKey } from '../api/api-keys.ts';
import { CreateKeyForm } from '../components/create-key-form.tsx';
import { KeyList } from '../components/key-list.tsx';
import { OVERLAP_CHOICES } from '../components/scopes.ts';
import { SecretPanel } from '../components/secret-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../api-keys.css';

registerCatalogue('apiKeys', { ja, en });

/**
 * API keys of the organization (administrators, standard plan and above): the keys, a new key with its one-time
 * secret, rotation with an overlap for the replaced secret, and revocation after a confirmation.
 */
export function ApiKeysPage() {
  const { t } = useTranslation('apiKeys');
  const keys = useApiKeys();
  const rotate = useRotateApiKey();
  const revoke = useRevokeApiKey();
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const [rotating, setRotating] = useState<ApiKey | null>(null);
  const [overlapHours, setOverlapHours] = useState(24);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  useEffect(() => {
    document.title = t('title');
  }, [t]);
  if (keys.error instanceof ApiError && keys.error.code === 'IP_RESTRICTED') throw keys.error;
  const planRefused = keys.error instanceof ApiError && keys.error.code === 'PLAN_FEATURE_UNAVAILABLE';

  return (
    <section aria-labelledby="api-keys-title" className="org-settings api-keys">
      <h1 id="api-keys-title">{t('title')}</h1>
      <p>{t('intro')}</p>
      {keys.isPending && (
        <p role="status" className="muted">
          {t('loading')}
        </p>
      )}
      {planRefused && (
        <p role="status" className="notice">
          {t('planRequired')}
        </p>
      )}
      {keys.error && !planRefused && <ApiErrorNotice error={keys.error} />}
      {issued && <SecretPanel issued={issued} onDone={() => setIssued(null)} />}
      {keys.data && (
        <>
          <h2 id="api-key-list-title">{t('list.title')}</h2>
          <KeyList
            keys={keys.data}
            onRotate={(key) => {
              rotate.reset();
              setOverlapHours(24);
              setRotating(key);
            }}
            onRevoke={(key) => {
              revoke.reset();
              setRevoking(key);
            }}
          />
          <CreateKeyForm onCreated={setIssued} />
        </>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title={t('rotate.title')}
        confirmLabel={t('rotate.action')}
        pending={rotate.isPending}
        onCancel={() => setRotating(null)}
        onConfirm={() =>
          rotating &&
          rotate.mutate(
            { id: rotating.id, overlapHours },
            {
              onSuccess: (result) => {
                setRotating(null);
                setIssued(result);
              },
            },
          )
        }
      >
        <p>{t('rotate.confirm', { name: rotating?.attributes.name ?? '' })}</p>
        <SelectField
          id="api-key-overlap"
          label={t('rotate.overlap')}
          value={overlapHours}
          options={OVERLAP_CHOICES.map((hours) => ({ value: hours, label: t(`rotate.overlapChoices.h${hours}`) }))}
          onChange={(event) => setOverlapHours(Number(event.target.value))}
        />
        <ApiErrorNotice error={rotate.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t('revoke.title')}
        confirmLabel={t('revoke.action')}
        danger
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast.success(t('revoke.done', { name: revoking.attributes.name }));
              setRevoking(null);
            },
          })
        }
      >
        <p>{t('revoke.confirm', { name: revoking?.attributes.name ?? '' })}</p>
        <ApiErrorNotice error={revoke.error} />
      </ConfirmDialog>
    </section>
  );
}
