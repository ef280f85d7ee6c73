import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useRequestEmailConfirmation } from '../api/request-email-confirmation.ts';

/**
 * Signing needs a confirmed e-mail address: until then the screen shows this notice instead of the sign button,
 * with a button that mails the confirmation link, and a reload for after the link was opened.
 */
export function EmailConfirmationNotice(props: { email: string; onReload: () => void }) {
  const { t } = useTranslation('signing');
  const request = useRequestEmailConfirmation();
  return (
    <section aria-labelledby="email-confirmation-title" className="notice email-confirmation">
      <h3 id="email-confirmation-title">{t('emailConfirmation.title')}</h3>
      <p>{t('emailConfirmation.body', { email: props.email })}</p>
      <ApiErrorNotice error={request.error} />
      {request.isSuccess && (
        <p role="status" className="success">
          {t('emailConfirmation.sent', { email: props.email })}
        </p>
      )}
      <div className="task-actions">
        <button type="button" className="button primary" disabled={request.isPending} onClick={() => request.mutate()}>
          {request.isPending
            ? t('emailConfirmation.sending')
            : request.isSuccess
              ? t('emailConfirmation.resend')
              : t('emailConfirmation.send')}
        </button>
        {request.isSuccess && (
          <button type="button" className="button" onClick={props.onReload}>
            {t('emailConfirmation.reload')}
          </button>
        )}
      </div>
    </section>
  );
}
