import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { confirmEmailQueryOptions } from '../api/confirm-email.ts';

registerCatalogue('signing', { ja, en });

const route = getRouteApi('/arrival-confirmation');

/** A refusal of the token itself: unknown, used, expired, or one the contract refuses (too short, too long). */
function isInvalidLink(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 'EMAIL_CONFIRMATION_LINK_INVALID' || Boolean(error.fieldErrors().token) || error.status === 422)
  );
}

/**
 * The page the arrival-confirmation mail links to (?token=…): the token is sent as the page opens, then the page
 * says the address is confirmed (signing is possible now) or that the link is invalid (ask for a new mail).
 */
export function ArrivalConfirmationPage() {
  const { t } = useTranslation(['signing', 'auth', 'errors']);
  const { token } = route.useSearch();
  const confirm = useQuery({ ...confirmEmailQueryOptions(token ?? ''), enabled: Boolean(token) });
  const invalid = !token || isInvalidLink(confirm.error);

  return (
    <PublicFrame title={t('auth:arrivalConfirmation.title')}>
      <p>{t('auth:arrivalConfirmation.what')}</p>
      {invalid ? (
        <div role="alert" className="form-error">
          <p>{t('errors:EMAIL_CONFIRMATION_LINK_INVALID')}</p>
          <p>{t('arrival.invalidHint')}</p>
        </div>
      ) : confirm.isPending ? (
        <p role="status">{t('arrival.confirming')}</p>
      ) : confirm.isSuccess ? (
        <div role="status" className="success">
          <p>{t('arrival.done')}</p>
        </div>
      ) : (
        <ApiErrorNotice error={confirm.error} />
      )}
      <p className="links">
        {confirm.isSuccess && <Link to="/">{t('arrival.toWorkbench')}</Link>}
        <Link to="/login">{t('auth:backToLogin')}</Link>
      </p>
    </PublicFrame>
  );
}
