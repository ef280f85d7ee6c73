import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { DownloadForm } from '../components/download-form.tsx';
import { VerifyPanel } from '../components/verify-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('logs', { ja, en });

/** Settings > operation log and sign record download: CSV of a period (≤ 31 days) and the tamper check. */
export function LogsPage() {
  const { t } = useTranslation(['logs', 'common']);
  const me = useCurrentUser();

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="logs-title" className="admin-screen logs">
      <h1 id="logs-title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      {me.isPending && <p role="status">{t('common:loading')}</p>}
      <ApiErrorNotice error={me.error} />
      {me.data && !me.data.attributes.isAdmin && (
        <p className="notice" role="status">
          {t('forbidden')}
        </p>
      )}
      {me.data?.attributes.isAdmin && (
        <>
          <DownloadForm />
          <VerifyPanel />
        </>
      )}
    </section>
  );
}
