import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import {
  COMMENT_MAX,
  emptyFlowInput,
  type FlowInput,
  type FlowProblem,
  flowServerProblems,
  NAME_MAX,
  propertyField,
  SYSTEM_LINK_ID_MAX,
  validateFlow,
  valuesOf,
} from '../flow-form-state.ts';
import { checkValues, type ValueDefinition } from '../property-values.ts';
import { PropertyInputs, valueInputId } from './property-inputs.tsx';

interface TemplateChoice {
  id: string;
  attributes: {
    name: string;
    comment: string | null;
    autoComplete: boolean;
    properties: { propertyId: string; value: string | null }[];
  };
}

/**
 * A business flow's fields and its custom property values, checked live with the shared validator; on creation also
 * the workspace and the source (from scratch or a template, whose values fill the form).
 */
export function FlowForm(props: {
  idPrefix: string;
  definitions: readonly ValueDefinition[];
  /** Creation only: the workspaces to choose from and the templates. */
  workspaces?: { id: string; name: string }[];
  initialWorkspaceId?: string;
  templates?: TemplateChoice[];
  initial?: FlowInput;
  submitLabel?: string;
  /** Properties whose values the caller may not change (shown, disabled). */
  readOnlyProperty?: (propertyId: string) => boolean;
  /** The flow's own fields are shown but not editable (a partner edits only property values). */
  fieldsDisabled?: boolean;
  onSubmit: (input: FlowInput) => Promise<unknown>;
  onReload?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(['businessFlows', 'errors']);
  const creating = props.workspaces !== undefined;
  const ids = props.definitions.map((d) => d.id);
  const idOf = (name: string) =>
    name.startsWith('property:')
      ? valueInputId(props.idPrefix, name.slice('property:'.length))
      : `${props.idPrefix}-${name}`;
  const form = useCheckedForm({
    initial: props.initial ?? emptyFlowInput(props.initialWorkspaceId),
    validate: (input: FlowInput) => validateFlow(input, props.definitions, { creating }),
    serverProblems: (errors) => flowServerProblems(errors, ids),
    fieldId: idOf,
    onSubmit: async (input: FlowInput) => {
      setTouched(new Set());
      await props.onSubmit(input);
    },
  });
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const { input, problems } = form;
  const text = (problem: FlowProblem) =>
    problem.reason ? t(`validation.${problem.reason}`, problem.params) : t(`errors:${problem.code}`, problem.params);
  const errorsOf = (name: string) => (problems[name] ?? []).map(text);
  const live = checkValues(
    props.definitions.filter((d) => touched.has(d.id)),
    input.values,
  );
  const valueProblems = Object.fromEntries(
    props.definitions.map((d) => [
      d.id,
      touched.has(d.id) ? (live[d.id] ?? []) : (problems[propertyField(d.id)] ?? []),
    ]),
  );
  const set = (patch: Partial<FlowInput>) => form.setInput((previous) => ({ ...previous, ...patch }));
  const pickTemplate = (templateId: string) => {
    const template = props.templates?.find((tpl) => tpl.id === templateId);
    if (!template) return set({ templateId });
    const a = template.attributes;
    set({
      templateId,
      name: a.name,
      comment: a.comment ?? '',
      autoComplete: a.autoComplete,
      values: { ...input.values, ...valuesOf(a.properties) },
    });
  };
  const textField = (name: 'name' | 'systemLinkId', max: number) => ({
    id: idOf(name),
    label: t(`fields.${name}`),
    value: input[name],
    errors: errorsOf(name),
    autoComplete: 'off',
    maxLength: max,
    disabled: props.fieldsDisabled,
    onChange: form.changeText(name),
  });

  return (
    <form onSubmit={form.submit} noValidate className="admin-form property-form">
      <ApiErrorNotice error={form.failure} onReload={props.onReload} />
      {creating && (
        <div className="form-grid">
          <SelectField
            id={idOf('workspaceId')}
            label={t('fields.workspace')}
            value={input.workspaceId}
            required
            aria-invalid={problems.workspaceId ? true : undefined}
            onChange={(event) => set({ workspaceId: event.target.value })}
            options={[
              { value: '', label: t('new.chooseWorkspace') },
              ...props.workspaces!.map((w) => ({ value: w.id, label: w.name })),
            ]}
          />
          <SelectField
            id={idOf('source')}
            label={t('fields.source')}
            value={input.source}
            onChange={(event) => set({ source: event.target.value as FlowInput['source'], templateId: '' })}
            options={[
              { value: 'scratch', label: t('sources.scratch') },
              { value: 'template', label: t('sources.template') },
            ]}
          />
          {input.source === 'template' && (
            <SelectField
              id={idOf('templateId')}
              label={t('fields.template')}
              hint={t('hints.template')}
              value={input.templateId}
              aria-invalid={problems.templateId ? true : undefined}
              onChange={(event) => pickTemplate(event.target.value)}
              options={[
                { value: '', label: t('new.chooseTemplate') },
                ...(props.templates ?? []).map((tpl) => ({ value: tpl.id, label: tpl.attributes.name })),
              ]}
            />
          )}
        </div>
      )}
      {[...errorsOf('workspaceId'), ...errorsOf('templateId')].map((error) => (
        <p key={error} className="field-error">
          {error}
        </p>
      ))}
      <div className="form-grid">
        <FormField {...textField('name', NAME_MAX)} required />
        <FormField {...textField('systemLinkId', SYSTEM_LINK_ID_MAX)} hint={t('hints.systemLinkId')} />
      </div>
      <div className="field">
        <label htmlFor={idOf('comment')}>{t('fields.comment')}</label>
        <textarea
          id={idOf('comment')}
          rows={3}
          maxLength={COMMENT_MAX}
          value={input.comment}
          disabled={props.fieldsDisabled}
          aria-invalid={problems.comment ? true : undefined}
          onChange={form.changeText('comment')}
        />
        {errorsOf('comment').length > 0 && <p className="field-error">{errorsOf('comment').join(' ')}</p>}
      </div>
      <CheckboxField
        id={idOf('autoComplete')}
        label={t('fields.autoComplete')}
        hint={t('hints.autoComplete')}
        checked={input.autoComplete}
        disabled={props.fieldsDisabled}
        onChange={(event) => set({ autoComplete: event.target.checked })}
      />
      <fieldset className="field">
        <legend>{t('properties.title')}</legend>
        <PropertyInputs
          idPrefix={props.idPrefix}
          definitions={props.definitions}
          values={input.values}
          problems={valueProblems}
          disabled={props.readOnlyProperty}
          onChange={(propertyId, value) => {
            setTouched((previous) => new Set(previous).add(propertyId));
            set({ values: { ...input.values, [propertyId]: value } });
          }}
        />
      </fieldset>
      <FormActions
        pending={form.pending}
        submitLabel={props.submitLabel ?? t('new.submit')}
        sendingLabel={t('form.sending')}
        cancelLabel={t('form.cancel')}
        onCancel={props.onCancel}
      />
    </form>
  );
}
