import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { ApiKey } from '../api/api-keys.ts';

/**
 * The organization's keys as cards (they read the same at 1280 and 360 px): name, status, prefix, scopes, expiry,
 * last use (time and address), and the rotate and revoke actions of a key that is not revoked.
 */
export function KeyList({
  keys,
  onRotate,
  onRevoke,
}: {
  keys: ApiKey[];
  onRotate: (key: ApiKey) => void;
  onRevoke: (key: ApiKey) => void;
}) {
  const { t, i18n } = useTranslation('apiKeys');
  const format = japanDateTimeFormat(i18n.language);
  const time = (value: string | null, none: string) => (value ? format.format(new Date(value)) : none);
  if (keys.length === 0) return <p className="muted">{t('list.empty')}</p>;
  return (
    <ul className="api-key-list" aria-labelledby="api-key-list-title">
      {keys.map((key) => {
        const a = key.attributes;
        return (
          <li key={key.id} className="api-key-card" data-testid="api-key-card">
            <div className="api-key-card-head">
              <h3>{a.name}</h3>
              <span className={`api-key-status api-key-status-${a.status}`}>{t(`status.${a.status}`)}</span>
            </div>
            <dl className="api-key-facts">
              <dt>{t('list.prefix')}</dt>
              <dd>
                <code>{a.prefix}…</code>
              </dd>
              <dt>{t('list.scopes')}</dt>
              <dd>{a.scopes.map((scope) => t(`scopes.${scope.replace(':', '_')}`)).join('、')}</dd>
              <dt>{t('list.expiresAt')}</dt>
              <dd>{time(a.expiresAt, t('list.never'))}</dd>
              <dt>{t('list.lastUsed')}</dt>
              <dd>
                {a.lastUsedAt
                  ? t('list.lastUsedAt', { time: time(a.lastUsedAt, ''), ip: a.lastUsedIp ?? '-' })
                  : t('list.unused')}
              </dd>
              {a.previousSecretExpiresAt && (
                <>
                  <dt>{t('list.previousSecret')}</dt>
                  <dd>{t('list.previousUntil', { time: time(a.previousSecretExpiresAt, '') })}</dd>
                </>
              )}
              {a.revokedAt && (
                <>
                  <dt>{t('list.revokedAt')}</dt>
                  <dd>{time(a.revokedAt, '')}</dd>
                </>
              )}
            </dl>
            {a.status !== 'revoked' && (
              <div className="org-actions">
                <button
                  type="button"
                  className="button"
                  aria-label={t('rotate.labelFor', { name: a.name })}
                  onClick={() => onRotate(key)}
                >
                  {t('rotate.action')}
                </button>
                <button
                  type="button"
                  className="button danger"
                  aria-label={t('revoke.labelFor', { name: a.name })}
                  onClick={() => onRevoke(key)}
                >
                  {t('revoke.action')}
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
