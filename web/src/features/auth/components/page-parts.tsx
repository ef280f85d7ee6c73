import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** A form's submit button: disabled, and saying so, while its request is under way (`sending` unless told). */
export function SubmitButton(props: { label: string; pending: boolean; pendingLabel?: string; disabled?: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <button type="submit" className="button primary" disabled={props.pending || props.disabled}>
      {props.pending ? (props.pendingLabel ?? t('sending')) : props.label}
    </button>
  );
}

/** What a page that mails something shows once the request went through, with where to look if no mail comes. */
export function MailSentNotice({ text }: { text: string }) {
  const { t } = useTranslation('auth');
  return (
    <div className="success" role="status">
      <p>{text}</p>
      <p>{t('mailHelp')}</p>
    </div>
  );
}

/** The texts of the way to each of sign-in and sign-up from the other. */
const SWITCH_TEXTS = {
  '/signup': { question: 'login.noAccount', link: 'login.signUp' },
  '/login': { question: 'signup.haveAccount', link: 'signup.toLogin' },
} as const;

/** The way from sign-in to sign-up and back ("No account yet? Sign up"), keeping an invitation on the way. */
export function AccountSwitch({
  to,
  invitationToken,
  redirect,
}: {
  to: '/login' | '/signup';
  invitationToken?: string;
  /** With an invitation: the join page to come back to. */
  redirect?: string;
}) {
  const { t } = useTranslation('auth');
  const texts = SWITCH_TEXTS[to];
  return (
    <p className="signup-prompt">
      {t(texts.question)}{' '}
      <Link to={to} search={{ invitationToken, ...(invitationToken && redirect ? { redirect } : {}) }}>
        {t(texts.link)}
      </Link>
    </p>
  );
}
