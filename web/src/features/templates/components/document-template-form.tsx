import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { DOCUMENT_TYPES, type DocumentType } from '../../../api/document-types.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useGroupChoices, useRoleChoices } from '../api/choices.ts';
import {
  type DocumentTemplateInput,
  type ReadingPosition,
  serverProblems,
  validateDocumentTemplate,
} from '../validation.ts';
import { useProblemText } from './problem-text.ts';
import { TaskListEditor } from './task-list-editor.tsx';

type DocumentTemplate = components['schemas']['DocumentTemplate'];
type TemplateSample = components['schemas']['TemplateSample'];

/**
 * The reading-position editor of the AI-OCR feature, rendered inside the form: features do not import each other,
 * so web/src/routes hands it to the templates page.
 */
export type ReadingPositionsSlot = (props: {
  /** Null while the template is being created. */
  templateId: string | null;
  sample: TemplateSample;
  value: ReadingPosition[];
  onChange: (positions: ReadingPosition[]) => void;
  /** A sample upload changed the template (its sample and lockVersion). */
  onSampleStored: (template: DocumentTemplate) => void;
  errors: string[];
}) => ReactNode;

/**
 * A document template's name, ID for system link, document type, task list and reading positions, for creating
 * and editing. `onSubmit` gets the lockVersion the form holds: the one it opened with, or the one a sample upload
 * made since.
 */
export function DocumentTemplateForm(props: {
  initial: DocumentTemplateInput;
  /** The template being edited (absent when creating). */
  template?: DocumentTemplate;
  readingPositions?: ReadingPositionsSlot;
  submitLabel: string;
  onSubmit: (input: DocumentTemplateInput, lockVersion: number | undefined) => Promise<unknown>;
  onReload?: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('templates');
  const [stored, setStored] = useState(() =>
    props.template
      ? { lockVersion: props.template.attributes.lockVersion, sample: props.template.attributes.sample }
      : { lockVersion: undefined, sample: null },
  );
  const text = useProblemText();
  const groups = useGroupChoices().data ?? [];
  const roles = useRoleChoices().data ?? [];
  const form = useCheckedForm({
    initial: props.initial,
    validate: validateDocumentTemplate,
    serverProblems,
    fieldId: (name) => `document-template-${name}`,
    onSubmit: (input) => props.onSubmit(input, stored.lockVersion),
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
      {props.readingPositions?.({
        templateId: props.template?.id ?? null,
        sample: stored.sample,
        value: input.readingPositions,
        onChange: (readingPositions) => form.setInput((p) => ({ ...p, readingPositions })),
        onSampleStored: (template) =>
          setStored({ lockVersion: template.attributes.lockVersion, sample: template.attributes.sample }),
        errors: (problems.readingPositions ?? []).map(text),
      })}
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
