import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { type PasswordChange, useChangeMyPassword } from '../api/change-my-password.ts';
import { fieldMessages } from '../problems.ts';

type Field = keyof PasswordChange;
const EMPTY: PasswordChange = { currentPassword: '', password: '', passwordConfirmation: '' };
const ID: Record<Field, string> = {
  currentPassword: 'account-current-password',
  password: 'account-new-password',
  passwordConfirmation: 'account-new-password-confirmation',
};

/**
 * PUT /me/password: the current password and the new one twice. The organization's policy (length, kinds of
 * characters, history) is the server's: its refusals appear at their fields in the catalogue's words.
 */
export function PasswordForm() {
  const { t } = useTranslation(['account', 'errors']);
  const change = useChangeMyPassword();
  const [input, setInput] = useState<PasswordChange>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<Field, string[]>>>({});
  const [failure, setFailure] = useState<unknown>(null);

  const validate = (): Partial<Record<Field, string[]>> => {
    const found: Partial<Record<Field, string[]>> = {};
    for (const field of Object.keys(ID) as Field[]) if (input[field] === '') found[field] = [t('password.required')];
    if (!found.password && input.password === input.currentPassword) found.password = [t('password.same')];
    if (!found.passwordConfirmation && input.password !== input.passwordConfirmation) {
      found.passwordConfirmation = [t('password.mismatch')];
    }
    return found;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validate();
    setProblems(found);
    const first = (Object.keys(ID) as Field[]).find((field) => found[field]);
    if (first) {
      document.getElementById(ID[first])?.focus();
      return;
    }
    change.mutate(input, {
      onSuccess: () => {
        toast.success(t('password.done'));
        setInput(EMPTY);
      },
      onError: (error) => {
        const placed = fieldMessages(error, t);
        setProblems(placed);
        const firstPlaced = (Object.keys(ID) as Field[]).find((field) => placed[field]);
        if (firstPlaced) document.getElementById(ID[firstPlaced])?.focus();
        else setFailure(error);
      },
    });
  };

  const field = (name: Field, label: string, autoComplete: string) => ({
    id: ID[name],
    type: 'password',
    label,
    autoComplete,
    maxLength: 128,
    value: input[name],
    errors: problems[name] ?? [],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setInput((previous) => ({ ...previous, [name]: value }));
      setProblems(({ [name]: _dropped, ...rest }) => rest);
    },
  });

  return (
    <form className="panel admin-form" noValidate onSubmit={submit} aria-labelledby="account-password-title">
      <h2 id="account-password-title">{t('password.title')}</h2>
      <p>{t('password.intro')}</p>
      <ApiErrorNotice error={failure} action={t('failedActions.password')} />
      <FormField {...field('currentPassword', t('password.current'), 'current-password')} />
      <FormField {...field('password', t('password.new'), 'new-password')} hint={t('password.newHint')} />
      <FormField {...field('passwordConfirmation', t('password.confirmation'), 'new-password')} />
      <FormActions pending={change.isPending} submitLabel={t('password.submit')} sendingLabel={t('password.sending')} />
    </form>
  );
}
