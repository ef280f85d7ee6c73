import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import type { Language } from '../../../i18n/index.ts';
import { useCurrentTerms } from '../../../api/current-terms.ts';
import { useSignUp } from '../api/sign-up.ts';
import { AuthField } from '../components/auth-field.tsx';
import { AccountSwitch, SubmitButton } from '../components/page-parts.tsx';
import { TermsConsent } from '../../../components/terms-consent.tsx';
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

  /** Sets one attribute of the input; form.field and form.consent also take its problems away. */
  const setterOf =
    <K extends keyof SignUpInput>(name: K) =>
    (value: SignUpInput[K]) =>
      setInput((previous) => ({ ...previous, [name]: value }));
  const text = (name: TextField) => form.field(name, input[name], setterOf(name));

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
          void navigate({
            to: '/login',
            search: {
              loginId: input.loginId,
              invitationToken: search.invitationToken,
              redirect: search.redirect,
            },
          });
        },
        onError: form.fail,
      },
    );
  };

  return (
    <PublicFrame title={t('signup.title')} wide>
      <p>{t('signup.intro')}</p>
      <form onSubmit={submit} noValidate>
        <ErrorSummary {...form.errorSummary} />
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
            onChange={(event) => {
              setterOf('noCorporateNumber')(event.target.checked);
              form.touched('corporateNumber');
            }}
          />
        </fieldset>
        <fieldset>
          <legend>{t('signup.owner')}</legend>
          <p className="hint">{t('signup.ownerHint')}</p>
          <AuthField kind="loginId" {...text('loginId')} hint={t('hints.loginId')} />
          <FormField {...text('userName')} autoComplete="name" />
          <AuthField kind="email" {...text('email')} />
          <AuthField kind="newPassword" {...text('password')} />
          <AuthField kind="newPasswordConfirmation" {...text('passwordConfirmation')} />
        </fieldset>
        <TermsConsent {...form.consent('acceptTermId', input.agreed, setterOf('agreed'))} terms={terms} />
        <SubmitButton
          label={t('signup.submit')}
          pending={signUp.isPending}
          pendingLabel={t('signup.sending')}
          disabled={!terms.data}
        />
      </form>
      <AccountSwitch to="/login" invitationToken={search.invitationToken} redirect={search.redirect} />
    </PublicFrame>
  );
}
