import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { SealImageManager } from '../../../components/seal-images/seal-image-manager.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { currentUserQueryOptions, useCurrentUser } from '../../../session/current-user.ts';
import { MobileForm } from '../components/mobile-form.tsx';
import { PasswordForm } from '../components/password-form.tsx';
import { ProfileForm } from '../components/profile-form.tsx';
import { SessionsPanel } from '../components/sessions-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../account.css';

registerCatalogue('account', { ja, en });

/**
 * Every user's own account (/account): name and language, the mobile number for SMS codes, the password, seal
 * images, links to the e-certificate and agent screens, and the signed-in devices.
 */
export function AccountPage() {
  const { t } = useTranslation(['account', 'common']);
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const reload = () => void queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey });

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="account-title" className="admin-screen account-screen">
      <h1 id="account-title">{t('title')}</h1>
      <p>{t('intro')}</p>
      {user.isPending && (
        <p role="status" className="muted">
          {t('loading')}
        </p>
      )}
      <ApiErrorNotice error={user.error} />
      {user.data && (
        <>
          {/* Keyed by the lock version: after a save or a reload the forms start from the stored values. */}
          <ProfileForm key={`profile-${user.data.attributes.lockVersion}`} user={user.data} onReload={reload} />
          <MobileForm key={`mobile-${user.data.attributes.lockVersion}`} user={user.data} onReload={reload} />
        </>
      )}
      <PasswordForm />
      <section className="panel" aria-labelledby="account-seals-title">
        <h2 id="account-seals-title">{t('seals.title')}</h2>
        <p>{t('seals.intro')}</p>
        <SealImageManager level={3} />
      </section>
      <section className="panel" aria-labelledby="account-signing-title">
        <h2 id="account-signing-title">{t('signing.title')}</h2>
        <p>{t('signing.intro')}</p>
        <ul className="account-links">
          <li>
            <Link to="/organizations/settings/e-certificate">{t('signing.eCertificate')}</Link>
          </li>
          <li>
            <Link to="/organizations/settings/agents">{t('signing.agents')}</Link>
          </li>
        </ul>
      </section>
      <SessionsPanel />
    </section>
  );
}
