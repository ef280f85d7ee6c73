import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { type Problem, type RoleInput, serverProblems, validateRole } from '../validation.ts';
import { TaskMatrix } from './task-matrix.tsx';

/** A role's name, ID for system link and task matrix, for creating and editing. */
export function RoleForm(props: {
  initial: RoleInput;
  submitLabel: string;
  onSubmit: (input: RoleInput) => Promise<unknown>;
  onReload?: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['roles', 'errors']);
  const form = useCheckedForm({
    initial: props.initial,
    validate: validateRole,
    serverProblems,
    fieldId: (name) => `role-${name}`,
    onSubmit: props.onSubmit,
  });
  const { input, problems } = form;
  const text = (problem: Problem) =>
    problem.reason ? t(`validation.${problem.reason}`, problem.params) : t(`errors:${problem.code}`);

  const field = (name: 'name' | 'systemLinkId') => ({
    id: `role-${name}`,
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
      <TaskMatrix
        id="role-taskPermissions"
        value={input.taskPermissions}
        onChange={(taskPermissions) => form.setInput((previous) => ({ ...previous, taskPermissions }))}
        errors={(problems.taskPermissions ?? []).map(text)}
      />
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
