import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from './date-format.ts';

/**
 * A secret shown this once (an API key, a webhook signing secret): a warning that it cannot be shown again, the
 * secret with a copy button and, after a rotation, until when the replaced one keeps working. Texts come from the
 * feature's catalogue `namespace` under `secret.*` (title, onlyOnce, copy, copied, copyFailed, previousUntil, done).
 */
export function OneTimeSecret({
  namespace,
  id,
  title,
  secret,
  previousUntil,
  className,
  children,
  onDone,
}: {
  namespace: string;
  /** Prefixes the heading's id and names the secret's test id (`${id}-secret`). */
  id: string;
  title: string;
  secret: string;
  previousUntil: string | null | undefined;
  className: string;
  /** What the feature adds: the endpoint's address, how to send the key. */
  children?: ReactNode;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation(namespace);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [secret]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby={`${id}-secret-title`} className={className}>
      <h2 id={`${id}-secret-title`}>{title}</h2>
      <p className="notice" role="alert">
        {t('secret.onlyOnce')}
      </p>
      <div className={`${id}-secret-value`}>
        <code data-testid={`${id}-secret`}>{secret}</code>
        <button type="button" className="button primary" onClick={() => void copy()}>
          {t('secret.copy')}
        </button>
      </div>
      {copied && (
        <p role="status" className={copied === 'yes' ? 'success' : 'form-error'}>
          {copied === 'yes' ? t('secret.copied') : t('secret.copyFailed')}
        </p>
      )}
      {previousUntil && (
        <p className="muted">
          {t('secret.previousUntil', { time: japanDateTimeFormat(i18n.language).format(new Date(previousUntil)) })}
        </p>
      )}
      {children}
      <div className="org-actions">
        <button type="button" className="button" onClick={onDone}>
          {t('secret.done')}
        </button>
      </div>
    </section>
  );
}
