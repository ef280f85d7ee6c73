import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { type Session, useMySessions, useSignOutOtherSessions, useSignOutSession } from '../api/sessions.ts';
import { deviceName } from '../device.ts';

/** The caller's signed-in devices, this one marked, with sign-out per device and for every other one. */
export function SessionsPanel() {
  const { t, i18n } = useTranslation(['account', 'errors']);
  const sessions = useMySessions();
  const others = useSignOutOtherSessions();
  const one = useSignOutSession();
  const [confirmOthers, setConfirmOthers] = useState(false);
  const [ending, setEnding] = useState<Session | null>(null);
  const date = japanDateTimeFormat(i18n.language);
  // This device first, then the others as the server orders them (last used first).
  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.attributes.current) - Number(a.attributes.current));
  const otherCount = list.filter((session) => !session.attributes.current).length;

  const device = (session: Session) => {
    const named = deviceName(session.attributes.userAgent);
    return named ? t('sessions.browserOn', named) : t('sessions.unknownDevice');
  };

  return (
    <section className="panel" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title">{t('sessions.title')}</h2>
      <p>{t('sessions.intro')}</p>
      {sessions.isPending && (
        <p role="status" className="muted">
          {t('sessions.loading')}
        </p>
      )}
      <ApiErrorNotice error={sessions.error} />
      {sessions.data && (
        <>
          <ul className="session-list">
            {list.map((session) => (
              <li key={session.id} className={session.attributes.current ? 'session current' : 'session'}>
                <div className="session-device">
                  <strong title={session.attributes.userAgent ?? undefined}>{device(session)}</strong>
                  {session.attributes.current && <span className="badge badge-ok">{t('sessions.current')}</span>}
                </div>
                <dl>
                  <div>
                    <dt>{t('sessions.ip')}</dt>
                    <dd>{session.attributes.ip ?? '-'}</dd>
                  </div>
                  <div>
                    <dt>{t('sessions.createdAt')}</dt>
                    <dd>{date.format(new Date(session.attributes.createdAt))}</dd>
                  </div>
                  <div>
                    <dt>{t('sessions.lastUsedAt')}</dt>
                    <dd>{date.format(new Date(session.attributes.lastUsedAt))}</dd>
                  </div>
                </dl>
                {!session.attributes.current && (
                  <button
                    type="button"
                    className="button small"
                    aria-label={t('sessions.signOutLabel', {
                      device: device(session),
                      ip: session.attributes.ip ?? '-',
                    })}
                    onClick={() => {
                      one.reset();
                      setEnding(session);
                    }}
                  >
                    {t('sessions.signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {otherCount === 0 ? (
            <p className="muted">{t('sessions.onlyThis')}</p>
          ) : (
            <div className="form-actions">
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  others.reset();
                  setConfirmOthers(true);
                }}
              >
                {t('sessions.signOutOthers')}
              </button>
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirmOthers}
        title={t('sessions.othersTitle')}
        confirmLabel={t('sessions.signOutOthers')}
        danger
        pending={others.isPending}
        onCancel={() => setConfirmOthers(false)}
        onConfirm={() =>
          others.mutate(undefined, {
            onSuccess: () => {
              toast.success(t('sessions.othersDone'));
              setConfirmOthers(false);
            },
          })
        }
      >
        <p>{t('sessions.othersBody', { count: otherCount })}</p>
        <ApiErrorNotice error={others.error} action={t('sessions.failedAction')} />
      </ConfirmDialog>
      <ConfirmDialog
        open={ending !== null}
        title={t('sessions.oneTitle')}
        confirmLabel={t('sessions.signOut')}
        danger
        pending={one.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() =>
          ending &&
          one.mutate(ending.id, {
            onSuccess: () => {
              toast.success(t('sessions.signedOut'));
              setEnding(null);
            },
          })
        }
      >
        <p>{ending && t('sessions.oneBody', { device: device(ending), ip: ending.attributes.ip ?? '-' })}</p>
        <ApiErrorNotice error={one.error} action={t('sessions.failedAction')} />
      </ConfirmDialog>
    </section>
  );
}
