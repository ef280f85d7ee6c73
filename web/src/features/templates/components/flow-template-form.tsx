import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { useDocumentTemplateChoices } from '../api/choices.ts';
import { type FlowTemplateInput, serverProblems, validateFlowTemplate } from '../validation.ts';
import { DocumentListEditor } from './document-list-editor.tsx';
import { useProblemText } from './problem-text.ts';

/** A business flow template's name, ID for system link, comment, auto-complete and documents. */
export function FlowTemplateForm(props: {
  initial: FlowTemplateInput;
  submitLabel: string;
  onSubmit: (input: FlowTemplateInput) => Promise<unknown>;
  onReload?: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('templates');
  const text = useProblemText();
  const templates = useDocumentTemplateChoices().data ?? [];
  const form = useCheckedForm({
    initial: props.initial,
    validate: validateFlowTemplate,
    serverProblems,
    fieldId: (name) => `flow-template-${name}`,
    onSubmit: props.onSubmit,
  });
  const { input, problems } = form;
  const field = (name: 'name' | 'systemLinkId' | 'comment') => ({
    id: `flow-template-${name}`,
    name,
    label: t(`fields.${name}`),
    value: input[name],
    errors: (problems[name] ?? []).map(text),
    autoComplete: 'off',
    maxLength: name === 'comment' ? 1000 : 100,
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
        <FormField {...field('comment')} />
        <CheckboxField
          id="flow-template-autoComplete"
          label={t('fields.autoComplete')}
          checked={input.autoComplete}
          onChange={(e) => form.setInput((p) => ({ ...p, autoComplete: e.target.checked }))}
        />
      </div>
      <DocumentListEditor
        id="flow-template-documents"
        value={input.documents}
        templates={templates}
        errors={[...(problems.documents ?? []), ...(problems.properties ?? [])].map(text)}
        onChange={(documents) => form.setInput((p) => ({ ...p, documents }))}
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
