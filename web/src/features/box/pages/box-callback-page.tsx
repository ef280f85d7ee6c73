import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useErrorText } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCompleteBoxConnection } from '../api/box-connection.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('box', { ja, en });

const route = getRouteApi('/guarded/box/callback');

/**
 * /box/callback: Box sends the administrator's browser back here with `?code&state`; the connection is completed
 * and the settings screen opens with a toast. A refusal (BOX_STATE_INVALID, BOX_AUTH_FAILED, Box's own
 * access_denied) reads as a clear page with the way back.
 */
export function BoxCallbackPage() {
  const { t } = useTranslation('box');
  const search = route.useSearch();
  // Box's answer as it arrived: it is used once, even if the page renders again.
  const [answer] = useState(search);
  const complete = useCompleteBoxConnection();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const started = useRef(false);
  const usable = Boolean(answer.code && answer.state && !answer.error);

  useEffect(() => {
    document.title = t('callback.title');
  }, [t]);

  useEffect(() => {
    if (!usable || started.current) return;
    started.current = true;
    complete.mutate(
      { code: answer.code!, state: answer.state! },
      {
        onSuccess: () => {
          toast.success(t('settings.connectedToast'));
          void navigate({ to: '/organizations/settings/box', replace: true });
        },
      },
    );
  }, [usable, answer, complete, navigate, t]);

  const problem = !usable
    ? answer.error
      ? t('callback.boxRefused')
      : t('callback.missing')
    : complete.isError
      ? errorText(complete.error)
      : null;

  return (
    <section aria-labelledby="box-callback-title" className="admin-screen box-callback">
      <h1 id="box-callback-title">{t('callback.title')}</h1>
      {problem === null ? (
        <p role="status" className="muted">
          {t('callback.working')}
        </p>
      ) : (
        <>
          <div role="alert" className="form-error box-refusal">
            <h2>{t('callback.failed')}</h2>
            <p>{problem}</p>
          </div>
          <p className="links">
            <Link to="/organizations/settings/box">{t('callback.back')}</Link>
          </p>
        </>
      )}
    </section>
  );
}
