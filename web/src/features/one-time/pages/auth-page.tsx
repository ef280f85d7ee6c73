import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { queryClient } from '../../../session/session.ts';
import { formatAccessCode, isAccessCode } from '../access-code.ts';
import { type Credential, useOneTimeInvitation, useSendOneTimeAuthCode } from '../api/guest-auth.ts';
import { getOneTimeMe, oneTimeMeQueryOptions } from '../api/guest-me.ts';
import { CodeStep, type SentAuthCode } from '../components/code-step.tsx';
import { InvitationSummary } from '../components/invitation-summary.tsx';
import { LinkProblemPage, linkProblemOf } from '../components/link-problem.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../one-time.css';

registerCatalogue('oneTime', { ja, en });

const route = getRouteApi('/onetime/auth');

/** Without a link: the 16-character code from the invitation mail names the invitation instead. */
function AccessCodeStep({ onEntered }: { onEntered: (accessCode: string) => void }) {
  const { t } = useTranslation('oneTime');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isAccessCode(value)) {
      setProblem(true);
      document.getElementById('onetime-access-code')?.focus();
      return;
    }
    onEntered(value);
  };
  return (
    <form noValidate onSubmit={submit}>
      <p>{t('auth.accessCodeIntro')}</p>
      <FormField
        id="onetime-access-code"
        className="onetime-access-code"
        label={t('auth.accessCode')}
        hint={t('auth.accessCodeHint')}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={24}
        value={value}
        errors={problem ? [t('auth.accessCodeRequired')] : []}
        onChange={(event) => {
          setValue(formatAccessCode(event.target.value));
          setProblem(false);
        }}
      />
      <button type="submit" className="button primary">
        {t('auth.next')}
      </button>
    </form>
  );
}

/** The first step with a known invitation: who invites, and the button that mails the 6-digit code. */
function SendStep(props: { credential: Credential; onSent: (sent: SentAuthCode) => void }) {
  const { t } = useTranslation('oneTime');
  const send = useSendOneTimeAuthCode();
  return (
    <div className="onetime-send-step">
      <p>{t('auth.sendIntro')}</p>
      <ApiErrorNotice error={send.error} />
      <button
        type="button"
        className="button primary"
        disabled={send.isPending}
        onClick={() => send.mutate(props.credential, { onSuccess: (sent) => props.onSent(sent) })}
      >
        {send.isPending ? t('auth.sending') : t('auth.send')}
      </button>
    </div>
  );
}

/**
 * /onetime/auth: the guest proves their address. With the mail link's token: the invitation, "send the code", then
 * the code. Without one: the 16-character access code first. After the code: the terms (once) or the flow.
 */
export function OneTimeAuthPage() {
  const { t } = useTranslation('oneTime');
  const search = route.useSearch();
  const navigate = useNavigate();
  const [accessCode, setAccessCode] = useState<string | null>(null);
  const credential: Credential | null = search.token ? { token: search.token } : accessCode ? { accessCode } : null;
  const invitation = useOneTimeInvitation(credential);
  const [sent, setSent] = useState<SentAuthCode | null>(null);
  const problem = linkProblemOf(invitation.error);
  const maskedEmail = invitation.data?.attributes.maskedEmail;
  // The QR page has just sent the code: straight to the code step.
  const sentAt = search.sent && !Number.isNaN(Date.parse(search.sent)) ? search.sent : undefined;
  const codeSent = sent ?? (search.sent && maskedEmail ? { maskedEmail, expiresAt: sentAt } : null);

  const signedIn = async (businessFlowId: string) => {
    const me = await queryClient.fetchQuery({ ...oneTimeMeQueryOptions(), queryFn: getOneTimeMe });
    if (me.attributes.termsAccepted) {
      await navigate({ to: '/onetime/business-flows/$businessFlowId', params: { businessFlowId } });
    } else {
      await navigate({ to: '/onetime/terms' });
    }
  };

  if (problem && problem !== 'session') return <LinkProblemPage problem={problem} />;

  const title = codeSent ? t('auth.codeTitle') : credential ? t('auth.title') : t('auth.accessCodeTitle');
  return (
    <PublicFrame title={title}>
      {search.timeout && !credential && (
        <p role="status" className="notice">
          {t('auth.sessionEnded')}
        </p>
      )}
      {search.signedOut && !credential && (
        <p role="status" className="success">
          {t('guest.signedOut')}
        </p>
      )}
      {!credential && <AccessCodeStep onEntered={setAccessCode} />}
      {credential && invitation.isPending && (
        <p role="status" className="muted">
          {t('auth.loading')}
        </p>
      )}
      {credential && invitation.error && <ApiErrorNotice error={invitation.error} />}
      {credential && invitation.data && (
        <>
          <InvitationSummary invitation={invitation.data.attributes} />
          {codeSent ? (
            <CodeStep credential={credential} sent={codeSent} onSignedIn={(id) => void signedIn(id)} />
          ) : (
            <SendStep credential={credential} onSent={setSent} />
          )}
        </>
      )}
    </PublicFrame>
  );
}
