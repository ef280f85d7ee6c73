import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useRequestUserIdReminder } from '../api/request-user-id-reminder.ts';
import { AuthField } from '../components/auth-field.tsx';
import { MailSentNotice, SubmitButton } from '../components/page-parts.tsx';
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
        <MailSentNotice text={t('noticeUserId.sent')} />
      ) : (
        <>
          <p>{t('noticeUserId.intro')}</p>
          <form onSubmit={submit} noValidate>
            <ErrorSummary {...form.errorSummary} />
            <AuthField kind="email" {...form.field('email', email, setEmail)} autoFocus />
            <SubmitButton label={t('noticeUserId.submit')} pending={remind.isPending} />
          </form>
        </>
      )}
      <p className="links">
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </PublicFrame>
  );
}
