import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { FallbackPage } from '../../../components/fallback-page.tsx';
import { LanguageSwitch } from '../../../components/language-switch.tsx';

/** The spec's invalid-invitation-link pages, one per reason, the QR code's "expired: reopen it" page, and "sign in". */
export type LinkProblem = 'invalid' | 'expired' | 'cancelled' | 'qrExpired' | 'session';

/** The page a refusal of the guest's link, code or QR code leads to, or null for other errors (shown in place). */
export function linkProblemOf(error: unknown): LinkProblem | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code as string) {
    case 'INVITATION_LINK_INVALID':
      return 'invalid';
    case 'INVITATION_LINK_EXPIRED':
      return 'expired';
    case 'INVITATION_CANCELLED':
      return 'cancelled';
    case 'QR_CODE_EXPIRED':
      return 'qrExpired';
    default:
      return error.status === 401 ? 'session' : null;
  }
}

const KEYS: Record<LinkProblem, string> = {
  invalid: 'link.invalid',
  expired: 'link.expired',
  cancelled: 'link.cancelled',
  qrExpired: 'qr.expired',
  session: 'link.session',
};

/**
 * A page of its own for a link that cannot be used (the fallback page's logo and heading): what happened and what
 * to do next. Guests have no home page, so the way on is the mail, the sender, or (without a session) the access code.
 */
export function LinkProblemPage({ problem }: { problem: LinkProblem }) {
  const { t } = useTranslation(['oneTime', 'common']);
  const key = KEYS[problem];
  useEffect(() => {
    document.title = `${t(`${key}.status`)} | ${t('common:appName')}`;
  }, [key, t]);
  return (
    <div className="onetime-problem">
      <div className="onetime-problem-language">
        <LanguageSwitch />
      </div>
      <FallbackPage title={t(`${key}.status`)} heading={t(`${key}.heading`)} home={null}>
        <p>{t(`${key}.body`)}</p>
        {problem === 'session' && (
          <Link className="button primary" to="/onetime/auth">
            {t('link.session.action')}
          </Link>
        )}
      </FallbackPage>
    </div>
  );
}
