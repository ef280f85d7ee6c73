import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import {
  type BoxConnection,
  useBoxConnection,
  useDisconnectBox,
  useStartBoxConnection,
} from '../api/box-connection.ts';
import { FolderSection } from '../components/folder-section.tsx';
import { UploadsTable } from '../components/uploads-table.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../box.css';

registerCatalogue('box', { ja, en });

/**
 * 組織管理 → Box連携 (administrators, plans with the box feature): the connected account and its state (the spec's
 * "Box authentication failure" with a way to connect again), the destination folder, recent uploads, disconnect.
 */
export function BoxSettingsPage() {
  const { t } = useTranslation('box');
  const connection = useBoxConnection();
  useEffect(() => {
    document.title = t('settings.title');
  }, [t]);
  if (connection.error instanceof ApiError && connection.error.code === 'IP_RESTRICTED') throw connection.error;
  return (
    <section aria-labelledby="box-title" className="org-settings box-settings">
      <h1 id="box-title">{t('settings.title')}</h1>
      <p>{t('settings.intro')}</p>
      {connection.isPending && (
        <p role="status" className="muted">
          {t('settings.loading')}
        </p>
      )}
      <ApiErrorNotice error={connection.error} />
      {connection.data && <ConnectionBody connection={connection.data} />}
    </section>
  );
}

function ConnectionBody({ connection }: { connection: BoxConnection }) {
  return (
    <>
      <ConnectionStatus connection={connection} />
      {connection.connected && connection.rootFolder && (
        <FolderSection rootFolder={connection.rootFolder} usable={connection.status === 'connected'} />
      )}
      {connection.connected && <UploadsTable connection={connection} />}
    </>
  );
}

function ConnectionStatus({ connection }: { connection: BoxConnection }) {
  const { t, i18n } = useTranslation(['box', 'errors']);
  const start = useStartBoxConnection();
  const disconnect = useDisconnectBox();
  const [confirming, setConfirming] = useState(false);
  const when = japanDateTimeFormat(i18n.language);
  const date = (value: string | null) => (value ? when.format(new Date(value)) : t('settings.none'));
  const connectButton = (label: string, primary: boolean) => (
    <button
      type="button"
      className={primary ? 'button primary' : 'button'}
      disabled={start.isPending || start.isSuccess}
      onClick={() => start.mutate()}
    >
      {start.isPending || start.isSuccess ? t('settings.connecting') : label}
    </button>
  );

  return (
    <section aria-labelledby="box-status-title" className="panel box-status">
      <h2 id="box-status-title">{t('settings.statusTitle')}</h2>
      {connection.status === 'not_connected' && (
        <p role="status" className="muted">
          {t('settings.notConnected')}
        </p>
      )}
      {!connection.configured && <p className="muted">{t('settings.notConfigured')}</p>}
      {connection.status === 'connected' && (
        <p role="status" className="success" data-testid="box-connected">
          {t('settings.connected', { account: connection.accountLogin ?? connection.accountName ?? '' })}
        </p>
      )}
      {connection.status === 'auth_failed' && (
        <div role="alert" className="form-error box-auth-failed">
          <h3>{t('settings.authFailedTitle')}</h3>
          <p>{t('settings.authFailed')}</p>
        </div>
      )}
      {connection.connected && (
        <dl className="facts box-facts">
          <div className="box-fact-wide">
            <dt>{t('settings.account')}</dt>
            <dd>
              {connection.accountName}
              {connection.accountLogin && <span className="box-account-login">{connection.accountLogin}</span>}
            </dd>
          </div>
          <div>
            <dt>{t('settings.connectedAt')}</dt>
            <dd>{date(connection.connectedAt)}</dd>
          </div>
          <div>
            <dt>{t('settings.lastUploadAt')}</dt>
            <dd>{date(connection.lastUploadAt)}</dd>
          </div>
          <div>
            <dt>{t('settings.failedUploads')}</dt>
            <dd className={connection.failedUploads > 0 ? 'box-failed-count' : undefined}>
              {t('settings.failedCount', { count: connection.failedUploads })}
            </dd>
          </div>
          <div className="box-fact-wide box-last-error">
            <dt>{t('settings.lastError')}</dt>
            <dd>
              {connection.lastError
                ? `${t(`errors:${connection.lastError.code}`)}${t('settings.lastErrorAt', { at: date(connection.lastError.at) })}`
                : t('settings.none')}
            </dd>
          </div>
        </dl>
      )}
      {connection.configured && connection.status !== 'connected' && (
        <p className="hint">{t('settings.connectHint')}</p>
      )}
      <ApiErrorNotice error={start.error} />
      <div className="org-actions">
        {connection.configured && connection.status === 'not_connected' && connectButton(t('settings.connect'), true)}
        {connection.configured && connection.status === 'auth_failed' && connectButton(t('settings.reconnect'), true)}
        {connection.connected && (
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            {t('settings.disconnect')}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('settings.disconnect')}
        confirmLabel={t('settings.disconnect')}
        danger
        pending={disconnect.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          disconnect.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              toast.success(t('settings.disconnected'));
            },
          })
        }
      >
        <p>{t('settings.disconnectConfirm')}</p>
      </ConfirmDialog>
      <ApiErrorNotice error={disconnect.error} />
    </section>
  );
}
