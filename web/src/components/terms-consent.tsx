import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/errors.ts';
import { CheckboxField } from './form-field.tsx';
import type { getCurrentTerms } from '../api/current-terms.ts';

type Terms = Awaited<ReturnType<typeof getCurrentTerms>>;

/** The consent a sign-in still needs: the first ever (an invited user) or to a revised version. */
export type TermsConsentKind = 'first' | 'revised';

/**
 * The consent the server asks for with a refused sign-in or password change (`meta.params.termsConsent` of
 * TERMS_NOT_AGREED, INITIAL_PASSWORD_CHANGE_REQUIRED, PASSWORD_EXPIRED); null when it asks for none.
 */
export function consentAskedBy(error: unknown): TermsConsentKind | null {
  if (!(error instanceof ApiError)) return null;
  const asked = error.errors.map((entry) => entry.meta?.params?.termsConsent).find(Boolean);
  if (asked === 'first' || asked === 'revised') return asked;
  return error.code === 'TERMS_NOT_AGREED' ? 'revised' : null;
}

/** The `terms` search value of the password-change screens as a consent kind. */
export function consentKindOf(value: string | undefined): TermsConsentKind | null {
  return value === 'first' || value === 'revised' ? value : null;
}

/**
 * The terms of use in force in a scrollable (and keyboard-scrollable) box, with the consent checkbox under them.
 * The checkbox stays disabled until the text is there to read.
 */
export function TermsConsent(props: {
  id: string;
  terms: UseQueryResult<Terms>;
  agreed: boolean;
  onAgreedChange: (agreed: boolean) => void;
  errors: string[];
  intro?: string;
  /** Words the intro and the checkbox as a first consent or as agreeing to a revision. */
  kind?: TermsConsentKind;
}) {
  const { t, i18n } = useTranslation(['auth', 'errors']);
  const { terms } = props;
  const headingId = `${props.id}-heading`;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(iso));
  return (
    <section className="terms" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('terms.heading')}</h2>
      {props.kind && <p className="notice">{t(props.kind === 'first' ? 'terms.askedFirst' : 'terms.askedAtSignIn')}</p>}
      {props.intro && <p className="notice">{props.intro}</p>}
      {terms.isPending && (
        <p role="status" className="muted">
          {t('terms.loading')}
        </p>
      )}
      {terms.isError && (
        <div className="terms-error">
          <p className="form-error">
            {t('terms.loadFailed')}{' '}
            {t(`errors:${terms.error instanceof ApiError ? terms.error.code : 'UNKNOWN_ERROR'}`)}
          </p>
          <button type="button" className="button" onClick={() => void terms.refetch()}>
            {t('terms.retry')}
          </button>
        </div>
      )}
      {terms.data && (
        <div className="terms-box" role="region" tabIndex={0} aria-label={terms.data.attributes.title}>
          <h3>{terms.data.attributes.title}</h3>
          <p className="muted">
            {t('terms.version', {
              version: terms.data.attributes.version,
              date: date(terms.data.attributes.effectiveAt),
            })}
          </p>
          <div className="terms-body">{terms.data.attributes.body}</div>
        </div>
      )}
      <CheckboxField
        id={props.id}
        label={t(props.kind === 'revised' ? 'terms.agreeRevised' : 'terms.agree')}
        checked={props.agreed}
        disabled={!terms.data}
        onChange={(event) => props.onAgreedChange(event.target.checked)}
        errors={props.errors}
      />
    </section>
  );
}
