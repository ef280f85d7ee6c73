import { useTranslation } from 'react-i18next';
import { OneTimeSecret } from '../../../components/one-time-secret.tsx';
import type { EndpointWithSecret } from '../api/webhook-endpoints.ts';

/** The signing secret of an endpoint just created or rotated, shown this once, with the endpoint's address. */
export function SecretPanel({ issued, onDone }: { issued: EndpointWithSecret; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  return (
    <OneTimeSecret
      namespace="webhooks"
      id="webhook"
      title={t('secret.title')}
      secret={issued.meta.secret}
      previousUntil={issued.data.attributes.previousSecretExpiresAt}
      className="panel webhook-secret"
      onDone={onDone}
    >
      <p className="webhook-secret-url">{issued.data.attributes.url}</p>
    </OneTimeSecret>
  );
}
