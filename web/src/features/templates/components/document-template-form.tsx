import { useTranslation } from 'react-i18next';
import { DOCUMENT_TYPES, type DocumentType } from '../../../api/document-types.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useGroupChoices, useRoleChoices } from '../api/choices.ts';
import { serverProblems, type DocumentTemplateInput, validateDocumentTemplate } from '../validation.ts';
import { useProblemText } from './problem-text.ts';
import { TaskListEditor } from './task-list-editor.tsx';

/** A document template's name, ID for system link, document type and task list, for creating and editing. */
export function DocumentTemplateForm(props: {
  initial: DocumentTemplateInput;
  submitLabel: string;
  onSubmit: (input: DocumentTemplateInput) => Promise<unknown>;
  onReload?: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('templates');
  const text = useProblemText();
  const groups = useGroupChoices().data ?? [];
  const roles = useRoleChoices().data ?? [];
  const form = useCheckedForm({
    initial: props.initial,
    validate: validateDocumentTemplate,
    serverProblems,
    fieldId: (name) => `document-template-${name}`,
    onSubmit: props.onSubmit,
  });
  const { input, problems } = form;
  const field = (name: 'name' | 'systemLinkId') => ({
    id: `document-template-${name}`,
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
      <ApiErrorNotice
        error={form.failure}
        onReload={props.onReload}
        action={t('common:failure.actions.saveTemplate')}
      />
      <div className="form-grid">
        <FormField {...field('name')} required />
        <FormField {...field('systemLinkId')} hint={t('hints.systemLinkId')} />
        <SelectField
          id="document-template-documentType"
          label={t('fields.documentType')}
          value={input.documentType}
          options={DOCUMENT_TYPES.map((type) => ({ value: type, label: t(`documentTypes.${type}`) }))}
          onChange={(e) => form.setInput((p) => ({ ...p, documentType: e.target.value as DocumentType }))}
        />
      </div>
      <TaskListEditor
        id="document-template-tasks"
        value={input.tasks}
        groups={groups}
        roles={roles}
        errors={[...(problems.tasks ?? []), ...(problems.properties ?? [])].map(text)}
        onChange={(tasks) => form.setInput((p) => ({ ...p, tasks }))}
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
