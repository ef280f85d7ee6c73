import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/errors.ts';
import { CheckboxField } from './form-field.tsx';
import type { getCurrentTerms } from '../api/current-terms.ts';

type Terms = Awaited<ReturnType<typeof getCurrentTerms>>;

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
}) {
  const { t, i18n } = useTranslation(['auth', 'errors']);
  const { terms } = props;
  const headingId = `${props.id}-heading`;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(iso));
  return (
    <section className="terms" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('terms.heading')}</h2>
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
        label={t('terms.agree')}
        checked={props.agreed}
        disabled={!terms.data}
        onChange={(event) => props.onAgreedChange(event.target.checked)}
        errors={props.errors}
      />
    </section>
  );
}
