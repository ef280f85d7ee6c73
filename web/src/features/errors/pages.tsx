import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors.ts';
import { FallbackPage } from '../../components/fallback-page.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return <FallbackPage title={t('fallback.notFound.title')} heading={t('fallback.notFound.heading')} />;
}

export function ForbiddenPage({ reason }: { reason?: 'ip' }) {
  const { t } = useTranslation();
  const key = reason === 'ip' ? 'forbiddenIp' : 'forbidden';
  return <FallbackPage title={t(`fallback.${key}.title`)} heading={t(`fallback.${key}.heading`)} />;
}

export function LinkInvalidPage() {
  const { t } = useTranslation();
  return <FallbackPage title={t('fallback.linkInvalid.title')} heading={t('fallback.linkInvalid.heading')} />;
}

export function ServerErrorPage({ traceId }: { traceId?: string }) {
  const { t } = useTranslation();
  return (
    <FallbackPage title={t('fallback.serverError.title')} heading={t('fallback.serverError.heading')} home={null}>
      {traceId && <p className="muted">{t('fallback.unexpected.traceId', { traceId })}</p>}
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        {t('fallback.serverError.reload')}
      </button>
    </FallbackPage>
  );
}

export function UnexpectedErrorPage({ traceId }: { traceId?: string }) {
  const { t } = useTranslation();
  return (
    <FallbackPage title={t('fallback.unexpected.title')} heading={t('fallback.unexpected.heading')}>
      <p>{t('fallback.unexpected.body')}</p>
      {traceId && <p className="muted">{t('fallback.unexpected.traceId', { traceId })}</p>}
    </FallbackPage>
  );
}

/** The page for an error that reached a boundary: API refusals get their page, anything else the generic one. */
export function ErrorPage({ error }: { error: unknown }) {
  if (error instanceof ApiError) {
    if (error.code === 'PASSWORD_RESET_LINK_INVALID') return <LinkInvalidPage />;
    if (error.code === 'IP_RESTRICTED') return <ForbiddenPage reason="ip" />;
    if (error.status === 403) return <ForbiddenPage />;
    if (error.status === 404) return <NotFoundPage />;
    if (error.status >= 500) return <ServerErrorPage traceId={error.traceId} />;
  }
  return <UnexpectedErrorPage />;
}

/** The one-time group's own error page: guests have no home to go back to. */
export function OneTimeErrorPage() {
  const { t } = useTranslation();
  return (
    <FallbackPage title={t('fallback.unexpected.title')} heading={t('fallback.oneTime.heading')} home={null}>
      <p>{t('fallback.oneTime.body')}</p>
    </FallbackPage>
  );
}
