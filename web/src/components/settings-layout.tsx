import { Link, Navigate, Outlet } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../session/current-user.ts';
import { sectionsFor } from './settings-sections.ts';

/** The organization settings area: a section menu beside the section's screen. */
export function SettingsLayout() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const sections = sectionsFor({
    isAdmin: me.data?.attributes.isAdmin ?? false,
    groups: me.data?.attributes.groups,
    features: me.data?.attributes.organization.features,
  });
  return (
    <div className="settings">
      <nav aria-label={t('settings.menuLabel')} className="settings-nav">
        <h2>{t('settings.title')}</h2>
        <ul>
          {sections.map((section) => (
            <li key={section.path}>
              <Link to={`/organizations/settings/${section.path}`}>{t(`settings.sections.${section.key}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-content">
        <Outlet />
      </div>
    </div>
  );
}

/** /organizations/settings itself: the first section this user may use (the users list for administrators). */
export function SettingsIndex() {
  const me = useCurrentUser();
  if (!me.data) return null;
  const { isAdmin, groups, organization } = me.data.attributes;
  const [first] = sectionsFor({ isAdmin, groups, features: organization.features });
  return <Navigate to={`/organizations/settings/${first?.path ?? 'organization'}`} replace />;
}
