import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useClaimOneTimeQrInvitation, useOneTimeQrInvitation } from '../api/qr-invitation.ts';
import { InvitationSummary } from '../components/invitation-summary.tsx';
import { LinkProblemPage, linkProblemOf } from '../components/link-problem.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../one-time.css';

registerCatalogue('oneTime', { ja, en });

const route = getRouteApi('/onetime/qr/$qrToken');

/** A plausible address (the server checks it for real): something@something.something, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Problems = { name?: boolean; email?: boolean };

/**
 * /onetime/qr/{qrToken}: the phone lands here from the QR code the member shows. The guest gives their name and
 * address; the 6-digit code is mailed at once and the page continues to /onetime/auth with it sent.
 */
export function OneTimeQrPage() {
  const { t, i18n } = useTranslation('oneTime');
  const { qrToken } = route.useParams();
  const navigate = useNavigate();
  const invitation = useOneTimeQrInvitation(qrToken);
  const claim = useClaimOneTimeQrInvitation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const problem = linkProblemOf(invitation.error) ?? linkProblemOf(claim.error);
  if (problem && problem !== 'session') return <LinkProblemPage problem={problem} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = { name: !name.trim(), email: !EMAIL.test(email.trim()) };
    setProblems(found);
    if (found.name || found.email) {
      document.getElementById(found.name ? 'onetime-qr-name' : 'onetime-qr-email')?.focus();
      return;
    }
    try {
      const claimed = await claim.mutateAsync({
        qrToken,
        name: name.trim(),
        email: email.trim(),
        locale: i18n.language === 'en' ? 'en' : 'ja',
      });
      // The code is on its way: the auth page opens at the code step, saying until when it holds.
      await navigate({ to: '/onetime/auth', search: { token: claimed.token, sent: claimed.expiresAt } });
    } catch {
      // Shown by the notice below (or the QR code's own page when it expired meanwhile).
    }
  };

  const attributes = invitation.data?.attributes;
  return (
    <PublicFrame title={t('qr.title')}>
      {invitation.isPending && (
        <p role="status" className="muted">
          {t('qr.loading')}
        </p>
      )}
      <ApiErrorNotice error={invitation.error} />
      {attributes && (
        <>
          <InvitationSummary invitation={attributes} />
          <p className="hint">
            {t('qr.validUntil', {
              time: japanDateTimeFormat(i18n.language).format(new Date(attributes.expiresAt)),
            })}
          </p>
          <form noValidate onSubmit={(event) => void submit(event)}>
            <p>{t('qr.intro')}</p>
            <FormField
              id="onetime-qr-name"
              label={t('qr.name')}
              autoComplete="name"
              maxLength={100}
              value={name}
              errors={problems.name ? [t('qr.nameRequired')] : []}
              onChange={(event) => {
                setName(event.target.value);
                setProblems({ ...problems, name: false });
              }}
            />
            <FormField
              id="onetime-qr-email"
              type="email"
              inputMode="email"
              label={t('qr.email')}
              autoComplete="email"
              maxLength={254}
              value={email}
              errors={problems.email ? [t('qr.emailInvalid')] : []}
              onChange={(event) => {
                setEmail(event.target.value);
                setProblems({ ...problems, email: false });
              }}
            />
            <ApiErrorNotice error={claim.error} />
            <button type="submit" className="button primary" disabled={claim.isPending}>
              {claim.isPending ? t('qr.sending') : t('qr.submit')}
            </button>
          </form>
        </>
      )}
    </PublicFrame>
  );
}
