import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { IssuedApiKey } from '../api/api-keys.ts';

/**
 * The secret of a key just created or rotated, shown this once: a warning that it cannot be shown again, the key,
 * a copy button and, after a rotation, until when the replaced secret keeps working.
 */
export function SecretPanel({ issued, onDone }: { issued: IssuedApiKey; onDone: () => void }) {
  const { t, i18n } = useTranslation('apiKeys');
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [issued]);
  const attributes = issued.data.attributes;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.meta.secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby="api-key-secret-title" className="api-key-secret">
      <h2 id="api-key-secret-title">{t('secret.title', { name: attributes.name })}</h2>
      <p className="notice" role="alert">
        {t('secret.onlyOnce')}
      </p>
      <div className="api-key-secret-value">
        <code data-testid="api-key-secret">{issued.meta.secret}</code>
        <button type="button" className="button primary" onClick={() => void copy()}>
          {t('secret.copy')}
        </button>
      </div>
      {copied && (
        <p role="status" className={copied === 'yes' ? 'success' : 'form-error'}>
          {copied === 'yes' ? t('secret.copied') : t('secret.copyFailed')}
        </p>
      )}
      {attributes.previousSecretExpiresAt && (
        <p className="muted">
          {t('secret.previousUntil', {
            time: japanDateTimeFormat(i18n.language).format(new Date(attributes.previousSecretExpiresAt)),
          })}
        </p>
      )}
      <div className="hint">
        <p>{t('secret.usage')}</p>
        <code className="api-key-header">Authorization: Bearer {attributes.prefix}…</code>
      </div>
      <div className="org-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('secret.done')}
        </button>
      </div>
    </section>
  );
}
