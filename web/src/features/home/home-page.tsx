import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlowLoading } from '../../api/query.ts';
import { useCurrentUser } from '../../session/current-user.ts';
import { WORKBENCH_AREAS as AREAS } from '../../components/areas.ts';

/** The dashboard: who is signed in, in which organization and plan, and the areas to go on to. */
export function HomePage() {
  const { t } = useTranslation(['auth', 'common']);
  const user = useCurrentUser();
  const slow = useSlowLoading(user.isPending);
  const me = user.data?.attributes;

  useEffect(() => {
    document.title = `${t('home.title')} | ${t('common:appName')}`;
  }, [t]);

  const role = me?.isOwner ? 'owner' : me?.isAdmin ? 'admin' : 'member';
  return (
    <section aria-labelledby="home-title" className="home">
      <h1 id="home-title">{t('home.title')}</h1>
      {user.isPending && (
        <div role="status" className="home-loading">
          <p className="muted">{t('home.loading')}</p>
          {slow && <p className="notice">{t('common:slowLoading')}</p>}
        </div>
      )}
      {me && (
        <div className="home-summary">
          <p className="greeting">{t('home.greeting', { name: me.name })}</p>
          <dl className="facts">
            <div>
              <dt>{t('home.organization')}</dt>
              <dd>{me.organization.name}</dd>
            </div>
            <div>
              <dt>{t('home.plan')}</dt>
              <dd>
                <span className={`plan plan-${me.organization.plan}`}>{t(`home.plans.${me.organization.plan}`)}</span>
              </dd>
            </div>
            <div>
              <dt>{t('home.role')}</dt>
              <dd>{t(`home.roles.${role}`)}</dd>
            </div>
            <div>
              <dt>{t('fields.loginId')}</dt>
              <dd>{me.loginId}</dd>
            </div>
          </dl>
        </div>
      )}
      <h2 className="home-areas-title">{t('home.areas')}</h2>
      <ul className="dashboard-grid">
        {AREAS.map((area) => (
          <li key={area.key} className="tile">
            <Link to="/organizations/$" params={{ _splat: area.splat }} className="tile-link">
              <span className="tile-title">{t(`home.tiles.${area.key}.title`)}</span>
              <span className="tile-text">{t(`home.tiles.${area.key}.text`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
