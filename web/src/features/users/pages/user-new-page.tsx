import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCreateUser } from '../api/create-user.ts';
import { UserForm } from '../components/user-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { EMPTY_USER, toCreateAttributes } from '../validation.ts';

registerCatalogue('users', { ja, en });

/** Registering a user: the server mails the invitation with a temporary password. */
export function UserNewPage() {
  const { t } = useTranslation(['users', 'common']);
  const navigate = useNavigate();
  const create = useCreateUser();

  useEffect(() => {
    document.title = `${t('form.newTitle')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="user-new-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/settings/users">{t('form.back')}</Link>
      </p>
      <h1 id="user-new-title">{t('form.newTitle')}</h1>
      <UserForm
        initial={EMPTY_USER}
        submitLabel={t('form.create')}
        onSubmit={async (input) => {
          const user = await create.mutateAsync(toCreateAttributes(input));
          toast.success(t('form.created', { loginId: user.attributes.loginId }));
          await navigate({ to: '/organizations/settings/users/$userId', params: { userId: user.id } });
        }}
      />
    </section>
  );
}
