import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import type { Language } from '../../../i18n/index.ts';
import { useCurrentTerms } from '../api/get-current-terms.ts';
import { useSignUp } from '../api/sign-up.ts';
import { TermsConsent } from '../components/terms-consent.tsx';
import { useAuthForm } from '../form.ts';
import { type SignUpInput, validateSignUp } from '../validation.ts';

const route = getRouteApi('/signup');

type TextField = Exclude<keyof SignUpInput, 'noCorporateNumber' | 'agreed'>;

const EMPTY: SignUpInput = {
  organizationName: '',
  corporateNumber: '',
  noCorporateNumber: false,
  loginId: '',
  userName: '',
  email: '',
  password: '',
  passwordConfirmation: '',
  agreed: false,
};

/** Sign-up: a new organization on the free plan and its owner, after agreeing to the terms in force. */
export function SignupPage() {
  const { t, i18n } = useTranslation(['auth', 'errors']);
  const search = route.useSearch();
  const navigate = useNavigate();
  const [input, setInput] = useState<SignUpInput>(EMPTY);
  const terms = useCurrentTerms();
  const signUp = useSignUp();
  const fields = {
    organizationName: { id: 'signup-organization-name', label: t('fields.organizationName') },
    corporateNumber: { id: 'signup-corporate-number', label: t('fields.corporateNumber') },
    loginId: { id: 'signup-login-id', label: t('fields.loginId') },
    userName: { id: 'signup-user-name', label: t('fields.userName') },
    email: { id: 'signup-email', label: t('fields.email') },
    password: { id: 'signup-password', label: t('fields.password') },
    passwordConfirmation: { id: 'signup-password-confirmation', label: t('fields.passwordConfirmation') },
    acceptTermId: { id: 'signup-terms', label: t('terms.heading') },
  };
  const form = useAuthForm(fields);

  const update = <K extends keyof SignUpInput>(name: K, value: SignUpInput[K], field: string = name) => {
    setInput((previous) => ({ ...previous, [name]: value }));
    form.touched(field);
  };
  const text = (name: TextField) => ({
    id: fields[name].id,
    label: fields[name].label,
    name,
    value: input[name],
    onChange: (event: { target: { value: string } }) => update(name, event.target.value),
    errors: form.errorsOf(name),
    required: true,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate(validateSignUp(input)) || !terms.data) return;
    const { agreed: _agreed, noCorporateNumber, ...attributes } = input;
    signUp.mutate(
      {
        ...attributes,
        corporateNumber: noCorporateNumber ? null : input.corporateNumber,
        locale: i18n.language as Language,
        acceptTermId: terms.data.id,
      },
      {
        onSuccess: () => {
          toast.success(t('signup.done'));
          void navigate({ to: '/login', search: { loginId: input.loginId, invitationToken: search.invitationToken } });
        },
        onError: form.fail,
      },
    );
  };

  return (
    <PublicFrame title={t('signup.title')} wide>
      <p>{t('signup.intro')}</p>
      <form onSubmit={submit} noValidate>
        <ErrorSummary
          title={t('form.summaryTitle')}
          message={form.alert}
          items={form.summary}
          focusKey={form.attempt}
        />
        <fieldset>
          <legend>{t('signup.organization')}</legend>
          <FormField {...text('organizationName')} autoComplete="organization" maxLength={100} />
          <FormField
            {...text('corporateNumber')}
            hint={t('hints.corporateNumber')}
            autoComplete="off"
            inputMode="numeric"
            maxLength={13}
            required={!input.noCorporateNumber}
            disabled={input.noCorporateNumber}
            errors={input.noCorporateNumber ? [] : form.errorsOf('corporateNumber')}
          />
          <CheckboxField
            id="signup-no-corporate-number"
            label={t('fields.noCorporateNumber')}
            hint={t('hints.noCorporateNumber')}
            checked={input.noCorporateNumber}
            onChange={(event) => update('noCorporateNumber', event.target.checked, 'corporateNumber')}
          />
        </fieldset>
        <fieldset>
          <legend>{t('signup.owner')}</legend>
          <p className="hint">{t('signup.ownerHint')}</p>
          <FormField
            {...text('loginId')}
            hint={t('hints.loginId')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
          />
          <FormField {...text('userName')} autoComplete="name" />
          <FormField {...text('email')} type="email" autoComplete="email" spellCheck={false} />
          <FormField {...text('password')} type="password" hint={t('hints.newPassword')} autoComplete="new-password" />
          <FormField {...text('passwordConfirmation')} type="password" autoComplete="new-password" />
        </fieldset>
        <TermsConsent
          id={fields.acceptTermId.id}
          terms={terms}
          agreed={input.agreed}
          onAgreedChange={(value) => update('agreed', value, 'acceptTermId')}
          errors={form.errorsOf('acceptTermId')}
        />
        <button type="submit" className="button primary" disabled={signUp.isPending || !terms.data}>
          {signUp.isPending ? t('signup.sending') : t('signup.submit')}
        </button>
      </form>
      <p className="signup-prompt">
        {t('signup.haveAccount')}{' '}
        <Link to="/login" search={{ invitationToken: search.invitationToken }}>
          {t('signup.toLogin')}
        </Link>
      </p>
    </PublicFrame>
  );
}
