import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { EndpointWithSecret } from '../api/webhook-endpoints.ts';

/**
 * The signing secret of an endpoint just created or rotated, shown this once: a warning, the secret, a copy button
 * and, after a rotation, until when the previous secret still signs deliveries.
 */
export function SecretPanel({ issued, onDone }: { issued: EndpointWithSecret; onDone: () => void }) {
  const { t, i18n } = useTranslation('webhooks');
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [issued]);
  const previous = issued.data.attributes.previousSecretExpiresAt;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.meta.secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby="webhook-secret-title" className="panel webhook-secret">
      <h2 id="webhook-secret-title">{t('secret.title')}</h2>
      <p className="notice" role="alert">
        {t('secret.onlyOnce')}
      </p>
      <p className="webhook-secret-url">{issued.data.attributes.url}</p>
      <div className="webhook-secret-value">
        <code data-testid="webhook-secret">{issued.meta.secret}</code>
        <button type="button" className="button primary" onClick={() => void copy()}>
          {t('secret.copy')}
        </button>
      </div>
      {copied && (
        <p role="status" className={copied === 'yes' ? 'success' : 'form-error'}>
          {copied === 'yes' ? t('secret.copied') : t('secret.copyFailed')}
        </p>
      )}
      {previous && (
        <p className="muted">
          {t('secret.previousUntil', { time: japanDateTimeFormat(i18n.language).format(new Date(previous)) })}
        </p>
      )}
      <div className="org-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('secret.done')}
        </button>
      </div>
    </section>
  );
}
