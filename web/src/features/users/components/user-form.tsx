import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { ChoiceList } from './choice-list.tsx';
import { type Choice, useGroupChoices, useRoleChoices } from '../api/list-choices.ts';
import {
  hasProblems,
  LOGIN_ID_MAX,
  LOGIN_ID_MIN,
  type Problem,
  type Problems,
  serverProblems,
  SUB_EMAILS_MAX,
  type UserInput,
  validateUser,
} from '../validation.ts';

type FieldName = Exclude<keyof UserInput, 'isAdmin'>;

const ID = {
  loginId: 'user-login-id',
  name: 'user-name',
  email: 'user-email',
  subEmails: 'user-sub-emails',
  mobilePhone: 'user-mobile-phone',
  systemLinkId: 'user-system-link-id',
  groupIds: 'user-groups',
  roleIds: 'user-roles',
} as const satisfies Record<FieldName, string>;

/** The label of each field, where its key differs from the attribute. */
const LABEL_KEY: Record<string, string> = { groupIds: 'groups', roleIds: 'roles' };

/** The limits the catalogue's messages name, for server problems that come without them. */
const KNOWN_PARAMS: Record<string, Record<string, number>> = {
  LOGIN_ID_INVALID: { min: LOGIN_ID_MIN, max: LOGIN_ID_MAX },
  SUB_EMAIL_LIMIT: { max: SUB_EMAILS_MAX },
};

/** Choices with the ones already selected added (they may be beyond the first page of choices). */
function withSelected(choices: Choice[] | undefined, current: Choice[]): Choice[] {
  const list = [...(choices ?? [])];
  for (const choice of current) if (!list.some((c) => c.id === choice.id)) list.push(choice);
  return list;
}

/**
 * The user form for registering and editing: client checks mirror the server's rules, server field errors land
 * next to their fields, and any other refusal (409 UPDATED_BY_ANOTHER_USER with its reload action) shows above.
 */
export function UserForm(props: {
  initial: UserInput;
  current?: { groups: Choice[]; roles: Choice[] };
  submitLabel: string;
  onSubmit: (input: UserInput) => Promise<unknown>;
  onReload?: () => void;
  /** The owner stays an administrator. */
  adminLocked?: boolean;
}) {
  const { t } = useTranslation(['users', 'errors']);
  const [input, setInput] = useState<UserInput>(props.initial);
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);
  const groups = useGroupChoices();
  const roles = useRoleChoices();

  const text = (problem: Problem) =>
    problem.reason
      ? t(`validation.${problem.reason}`, problem.params)
      : t(`errors:${problem.code}`, problem.params ?? KNOWN_PARAMS[problem.code]);
  const errorsOf = (name: FieldName) => (problems[name] ?? []).map(text);
  const set = <K extends keyof UserInput>(name: K, value: UserInput[K]) => {
    setInput((previous) => ({ ...previous, [name]: value }));
    if (problems[name]) setProblems(({ [name]: _dropped, ...rest }) => rest);
  };
  const field = (name: Exclude<FieldName, 'groupIds' | 'roleIds'>) => ({
    id: ID[name],
    name,
    label: t(`fields.${name}`),
    value: input[name],
    errors: errorsOf(name),
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateUser(input);
    setProblems(found);
    setFailure(null);
    setAttempt((n) => n + 1);
    if (hasProblems(found)) return;
    setPending(true);
    try {
      await props.onSubmit(input);
    } catch (error) {
      const byField = error instanceof ApiError ? serverProblems(error.errors) : {};
      const placed = Object.fromEntries(Object.entries(byField).filter(([name]) => name in ID));
      setProblems(placed);
      if (!hasProblems(placed) || Object.keys(placed).length < Object.keys(byField).length) setFailure(error);
    } finally {
      setPending(false);
    }
  };

  const summary = Object.entries(problems).flatMap(([name, list]) =>
    name in ID
      ? list.map((problem) => ({
          fieldId: ID[name as FieldName],
          text: t('form.summaryItem', { label: t(`fields.${LABEL_KEY[name] ?? name}`), message: text(problem) }),
        }))
      : [],
  );
  const groupChoices = withSelected(groups.data?.choices, props.current?.groups ?? []);
  const roleChoices = withSelected(roles.data?.choices, props.current?.roles ?? []);
  const truncated = (data?: { choices: Choice[]; total: number }) =>
    data && data.total > data.choices.length ? { shown: data.choices.length, total: data.total } : undefined;

  return (
    <form onSubmit={submit} noValidate className="admin-form">
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      <ErrorSummary title={t('form.summaryTitle')} items={summary} focusKey={failure ? 0 : attempt} />
      <div className="form-grid">
        <FormField {...field('loginId')} hint={t('hints.loginId')} required autoComplete="off" maxLength={100} />
        <FormField {...field('name')} required autoComplete="off" maxLength={100} />
        <FormField {...field('email')} type="email" required autoComplete="off" maxLength={254} />
        <FormField
          {...field('mobilePhone')}
          hint={t('hints.mobilePhone')}
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          maxLength={11}
        />
        <div className="field">
          <label htmlFor={ID.subEmails}>{t('fields.subEmails')}</label>
          <p id={`${ID.subEmails}-hint`} className="hint">
            {t('hints.subEmails')}
          </p>
          <textarea
            id={ID.subEmails}
            rows={3}
            value={input.subEmails}
            aria-invalid={errorsOf('subEmails').length > 0 ? true : undefined}
            aria-describedby={`${ID.subEmails}-hint${errorsOf('subEmails').length > 0 ? ` ${ID.subEmails}-error` : ''}`}
            onChange={(event) => set('subEmails', event.target.value)}
          />
          {errorsOf('subEmails').length > 0 && (
            <div id={`${ID.subEmails}-error`} className="field-error">
              {errorsOf('subEmails').map((message) => (
                <p key={message}>{message}</p>
              ))}
            </div>
          )}
        </div>
        <FormField {...field('systemLinkId')} hint={t('hints.systemLinkId')} autoComplete="off" maxLength={100} />
      </div>
      <CheckboxField
        id="user-is-admin"
        label={t('fields.isAdmin')}
        hint={t('hints.isAdmin')}
        checked={input.isAdmin}
        disabled={props.adminLocked}
        onChange={(event) => set('isAdmin', event.target.checked)}
      />
      <div className="form-grid">
        <ChoiceList
          id={ID.groupIds}
          legend={t('fields.groups')}
          hint={t('hints.groups')}
          choices={groupChoices}
          selected={input.groupIds}
          onChange={(value) => set('groupIds', value)}
          errors={errorsOf('groupIds')}
          emptyText={t('form.noGroups')}
          truncated={truncated(groups.data)}
          required
        />
        <ChoiceList
          id={ID.roleIds}
          legend={t('fields.roles')}
          hint={t('hints.roles')}
          choices={roleChoices}
          selected={input.roleIds}
          onChange={(value) => set('roleIds', value)}
          errors={errorsOf('roleIds')}
          emptyText={t('form.noRoles')}
          truncated={truncated(roles.data)}
        />
      </div>
      <FormActions pending={pending} submitLabel={props.submitLabel} sendingLabel={t('form.sending')} />
    </form>
  );
}
