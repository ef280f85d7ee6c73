import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useRequestUserIdReminder } from '../api/request-user-id-reminder.ts';
import { useAuthForm } from '../form.ts';
import { validateUserIdReminder } from '../validation.ts';

/** User-ID reminder: mails the IDs registered with an address; the answer never tells whether there are any. */
export function NoticeUserIdPage() {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const remind = useRequestUserIdReminder();
  const fields = { email: { id: 'reminder-email', label: t('fields.email') } };
  const form = useAuthForm(fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate(validateUserIdReminder({ email }))) return;
    remind.mutate({ email }, { onError: form.fail });
  };

  return (
    <PublicFrame title={t('noticeUserId.title')}>
      {remind.isSuccess ? (
        <div className="success" role="status">
          <p>{t('noticeUserId.sent')}</p>
          <p>{t('mailHelp')}</p>
        </div>
      ) : (
        <>
          <p>{t('noticeUserId.intro')}</p>
          <form onSubmit={submit} noValidate>
            <ErrorSummary
              title={t('form.summaryTitle')}
              message={form.alert}
              items={form.summary}
              focusKey={form.attempt}
            />
            <FormField
              id={fields.email.id}
              label={fields.email.label}
              name="email"
              type="email"
              autoComplete="email"
              spellCheck={false}
              required
              autoFocus
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                form.touched('email');
              }}
              errors={form.errorsOf('email')}
            />
            <button type="submit" className="button primary" disabled={remind.isPending}>
              {remind.isPending ? t('sending') : t('noticeUserId.submit')}
            </button>
          </form>
        </>
      )}
      <p className="links">
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </PublicFrame>
  );
}
