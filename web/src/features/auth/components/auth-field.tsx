import { useTranslation } from 'react-i18next';
import { FormField, type FormFieldProps } from '../../../components/form-field.tsx';

/** What the browser is told about each kind of sign-in field: its input type, autocomplete token and typing hints. */
const KINDS = {
  loginId: { autoComplete: 'username', autoCapitalize: 'none', spellCheck: false },
  email: { type: 'email', autoComplete: 'email', spellCheck: false },
  currentPassword: { type: 'password', autoComplete: 'current-password' },
  newPassword: { type: 'password', autoComplete: 'new-password' },
  newPasswordConfirmation: { type: 'password', autoComplete: 'new-password' },
} satisfies Record<string, Partial<FormFieldProps>>;

export type AuthFieldKind = keyof typeof KINDS;

/**
 * A FormField of one of the kinds above; a new password also shows the password rules as its hint. The page gives
 * the rest (usually `form.field(…)`), and may override any of it.
 */
export function AuthField({ kind, ...props }: FormFieldProps & { kind: AuthFieldKind }) {
  const { t } = useTranslation('auth');
  const hint = kind === 'newPassword' ? t('hints.newPassword') : undefined;
  return <FormField {...KINDS[kind]} hint={hint} {...props} />;
}
