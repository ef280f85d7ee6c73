import { useTranslation } from 'react-i18next';
import type { User } from '../api/get-user.ts';

/** The user's state as short badges: active or deactivated, then locked, e-mail blocked, invited, admin. */
export function UserBadges({ user }: { user: User }) {
  const { t } = useTranslation('users');
  const a = user.attributes;
  const badges: { key: string; tone: string }[] = [
    { key: a.status, tone: a.status === 'active' ? 'ok' : 'muted' },
    ...(a.locked ? [{ key: 'locked', tone: 'danger' }] : []),
    ...(a.emailBlocked ? [{ key: 'emailBlocked', tone: 'warn' }] : []),
    ...(a.mustChangePassword ? [{ key: 'invited', tone: 'info' }] : []),
    ...(a.isOwner ? [{ key: 'owner', tone: 'info' }] : a.isAdmin ? [{ key: 'admin', tone: 'info' }] : []),
  ];
  return (
    <ul className="badges">
      {badges.map((badge) => (
        <li key={badge.key} className={`badge badge-${badge.tone}`}>
          {t(`status.${badge.key}`)}
        </li>
      ))}
    </ul>
  );
}
