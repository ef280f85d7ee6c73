import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { type GroupInput, type Problem, serverProblems, validateGroup } from '../validation.ts';

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
  const form = useCheckedForm({
    initial: props.initial,
    validate: validateGroup,
    serverProblems,
    fieldId: (name) => `${props.idPrefix}-${name}`,
    onSubmit: props.onSubmit,
  });
  const { input, problems } = form;
  const text = (problem: Problem) =>
    problem.reason ? t(`validation.${problem.reason}`, problem.params) : t(`errors:${problem.code}`);

  const field = (name: keyof GroupInput) => ({
    id: `${props.idPrefix}-${name}`,
    name,
    label: t(`fields.${name}`),
    value: input[name],
    errors: (problems[name] ?? []).map(text),
    autoComplete: 'off',
    maxLength: 100,
    onChange: form.changeText(name),
  });

  return (
    <form onSubmit={form.submit} noValidate className="admin-form">
      <ApiErrorNotice error={form.failure} onReload={props.onReload} />
      <div className="form-grid">
        <FormField {...field('name')} required />
        <FormField {...field('systemLinkId')} hint={t('hints.systemLinkId')} />
      </div>
      <FormActions
        pending={form.pending}
        submitLabel={props.submitLabel}
        sendingLabel={t('form.sending')}
        cancelLabel={t('form.cancel')}
        onCancel={props.onCancel}
      />
    </form>
  );
}
