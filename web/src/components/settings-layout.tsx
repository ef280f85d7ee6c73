import { Link, Outlet } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../session/current-user.ts';
import { SETTINGS_SECTIONS } from './settings-sections.ts';

/** The organization settings area: a section menu beside the section's screen. */
export function SettingsLayout() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const isAdmin = me.data?.attributes.isAdmin ?? false;
  return (
    <div className="settings">
      <nav aria-label={t('settings.menuLabel')} className="settings-nav">
        <h2>{t('settings.title')}</h2>
        <ul>
          {SETTINGS_SECTIONS.filter((section) => isAdmin || !section.adminOnly).map((section) => (
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
