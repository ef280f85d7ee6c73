import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { type User, useUser } from '../api/get-user.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { UserActions } from '../components/user-actions.tsx';
import { UserBadges } from '../components/user-badges.tsx';
import { UserForm } from '../components/user-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { inputOf, toUpdateAttributes } from '../validation.ts';

registerCatalogue('users', { ja, en });

const route = getRouteApi('/guarded/organizations/settings/users/$userId');

/** One user: their state, and for administrators the edit form and the actions. */
export function UserDetailPage() {
  const { t } = useTranslation(['users', 'common']);
  const { userId } = route.useParams();
  const user = useUser(userId);
  const me = useCurrentUser();
  const update = useUpdateUser();
  const isAdmin = me.data?.attributes.isAdmin ?? false;
  const name = user.data?.attributes.name;

  useEffect(() => {
    document.title = `${name ?? t('form.detailTitle')} | ${t('common:appName')}`;
  }, [t, name]);

  const reload = () => void user.refetch().then(() => toast.info(t('form.reloaded')));

  return (
    <section aria-labelledby="user-detail-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/settings/users">{t('form.back')}</Link>
      </p>
      <h1 id="user-detail-title">{name ?? t('form.detailTitle')}</h1>
      <DetailStatus query={user} loading={t('form.loading')} notFound={t('form.notFound')} />
      {user.data && (
        <>
          <UserFacts user={user.data} />
          {isAdmin ? (
            <>
              <section aria-labelledby="user-edit-title" className="panel">
                <h2 id="user-edit-title">{t('form.editTitle')}</h2>
                <UserForm
                  key={user.data.attributes.lockVersion}
                  initial={inputOf(user.data)}
                  current={{ groups: user.data.attributes.groups, roles: user.data.attributes.roles }}
                  adminLocked={user.data.attributes.isOwner}
                  submitLabel={t('form.save')}
                  onReload={reload}
                  onSubmit={async (input) => {
                    const lockVersion = user.data!.attributes.lockVersion;
                    await update.mutateAsync({ userId, attributes: toUpdateAttributes(input, lockVersion) });
                    toast.success(t('form.saved'));
                  }}
                />
              </section>
              <UserActions user={user.data} isSelf={me.data?.id === userId} onReload={reload} />
            </>
          ) : (
            <p className="notice">{t('form.readOnly')}</p>
          )}
        </>
      )}
    </section>
  );
}

/** What an administrator or a group administrator sees of a user at a glance. */
function UserFacts({ user }: { user: User }) {
  const { t, i18n } = useTranslation('users');
  const a = user.attributes;
  const names = new Intl.ListFormat(i18n.language, { style: 'narrow', type: 'unit' });
  const time = japanDateTimeFormat(i18n.language);
  const facts: [string, string][] = [
    [t('fields.loginId'), a.loginId],
    [t('fields.email'), a.email],
    [t('facts.status'), t(`status.${a.status}`)],
    [t('facts.lock'), a.locked ? t('facts.locked') : t('facts.notLocked')],
    [t('facts.email'), a.emailBlocked ? t('facts.blocked') : t('facts.deliverable')],
    [t('facts.invitation'), a.mustChangePassword ? t('facts.pending') : t('facts.changed')],
    [t('fields.groups'), names.format(a.groups.map((g) => g.name))],
    [t('fields.roles'), names.format(a.roles.map((r) => r.name)) || '—'],
    [t('facts.createdAt'), time.format(new Date(a.createdAt))],
    [t('facts.updatedAt'), time.format(new Date(a.updatedAt))],
  ];
  return (
    <section aria-labelledby="user-facts-title" className="panel">
      <h2 id="user-facts-title">{t('facts.heading')}</h2>
      <UserBadges user={user} />
      <dl className="facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
