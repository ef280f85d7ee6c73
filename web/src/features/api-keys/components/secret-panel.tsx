import { useTranslation } from 'react-i18next';
import { OneTimeSecret } from '../../../components/one-time-secret.tsx';
import type { IssuedApiKey } from '../api/api-keys.ts';

/** The secret of a key just created or rotated, shown this once, with how an integration sends it. */
export function SecretPanel({ issued, onDone }: { issued: IssuedApiKey; onDone: () => void }) {
  const { t } = useTranslation('apiKeys');
  const attributes = issued.data.attributes;
  return (
    <OneTimeSecret
      namespace="apiKeys"
      id="api-key"
      title={t('secret.title', { name: attributes.name })}
      secret={issued.meta.secret}
      previousUntil={attributes.previousSecretExpiresAt}
      className="api-key-secret"
      onDone={onDone}
    >
      <div className="hint">
        <p>{t('secret.usage')}</p>
        <code className="api-key-header">Authorization: Bearer {attributes.prefix}…</code>
      </div>
    </OneTimeSecret>
  );
}
