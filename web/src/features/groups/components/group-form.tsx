import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { type GroupInput, type Problem, type Problems, serverProblems, validateGroup } from '../validation.ts';

/**
 * A group's name and ID for system link, for creating and renaming. Field problems show next to the fields; other
 * refusals (GROUP_LIMIT, 409 UPDATED_BY_ANOTHER_USER with its reload action) above the form.
 */
export function GroupForm(props: {
  idPrefix: string;
  initial: GroupInput;
  submitLabel: string;
  onSubmit: (input: GroupInput) => Promise<unknown>;
  onReload?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(['groups', 'errors']);
  const [input, setInput] = useState(props.initial);
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const text = (problem: Problem) =>
    problem.reason ? t(`validation.${problem.reason}`, problem.params) : t(`errors:${problem.code}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateGroup(input);
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      document.getElementById(`${props.idPrefix}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setPending(true);
    try {
      await props.onSubmit(input);
    } catch (error) {
      const placed = error instanceof ApiError ? serverProblems(error.errors) : {};
      setProblems(placed);
      if (Object.keys(placed).length === 0) setFailure(error);
    } finally {
      setPending(false);
    }
  };

  const field = (name: keyof GroupInput) => ({
    id: `${props.idPrefix}-${name}`,
    name,
    label: t(`fields.${name}`),
    value: input[name],
    errors: (problems[name] ?? []).map(text),
    autoComplete: 'off',
    maxLength: 100,
    onChange: (event: { target: { value: string } }) => {
      setInput((previous) => ({ ...previous, [name]: event.target.value }));
      setProblems(({ [name]: _dropped, ...rest }) => rest);
    },
  });

  return (
    <form onSubmit={submit} noValidate className="admin-form">
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      <div className="form-grid">
        <FormField {...field('name')} required />
        <FormField {...field('systemLinkId')} hint={t('hints.systemLinkId')} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? t('form.sending') : props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" className="button" onClick={props.onCancel}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
