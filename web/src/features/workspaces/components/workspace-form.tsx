import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useCheckedForm } from '../../../components/checked-form.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import {
  DESCRIPTION_MAX,
  NAME_MAX,
  type Problem,
  serverProblems,
  SYSTEM_LINK_ID_MAX,
  validateWorkspace,
  type WorkspaceInput,
} from '../validation.ts';

/**
 * A workspace's name, ID for system link, description and mail switch; on creation also the own groups taking
 * part. Field problems show next to their fields, other refusals (409 with its reload action) above the form.
 */
export function WorkspaceForm(props: {
  idPrefix: string;
  initial: WorkspaceInput;
  /** The own groups to choose from: only on creation. */
  groups?: { id: string; name: string }[];
  submitLabel: string;
  onSubmit: (input: WorkspaceInput) => Promise<unknown>;
  onReload?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(['workspaces', 'errors']);
  const creating = props.groups !== undefined;
  const form = useCheckedForm({
    initial: props.initial,
    validate: (input: WorkspaceInput) => validateWorkspace(input, { creating }),
    serverProblems,
    fieldId: (name) => (name === 'groupIds' ? `${props.idPrefix}-groups` : `${props.idPrefix}-${name}`),
    onSubmit: props.onSubmit,
  });
  const { input, problems } = form;
  const text = (problem: Problem) =>
    problem.reason ? t(`validation.${problem.reason}`, problem.params) : t(`errors:${problem.code}`);
  const field = (name: 'name' | 'systemLinkId', max: number) => ({
    id: `${props.idPrefix}-${name}`,
    name,
    label: t(`fields.${name}`),
    value: input[name],
    errors: (problems[name] ?? []).map(text),
    autoComplete: 'off',
    maxLength: max,
    onChange: form.changeText(name),
  });
  const toggleGroup = (id: string, checked: boolean) =>
    form.setInput((previous) => ({
      ...previous,
      groupIds: checked ? [...previous.groupIds, id] : previous.groupIds.filter((g) => g !== id),
    }));
  const descriptionErrors = (problems.description ?? []).map(text);

  return (
    <form onSubmit={form.submit} noValidate className="admin-form">
      <ApiErrorNotice error={form.failure} onReload={props.onReload} />
      <div className="form-grid">
        <FormField {...field('name', NAME_MAX)} required />
        <FormField {...field('systemLinkId', SYSTEM_LINK_ID_MAX)} hint={t('hints.systemLinkId')} />
      </div>
      <div className="field">
        <label htmlFor={`${props.idPrefix}-description`}>{t('fields.description')}</label>
        <textarea
          id={`${props.idPrefix}-description`}
          rows={3}
          maxLength={DESCRIPTION_MAX}
          value={input.description}
          aria-invalid={descriptionErrors.length > 0 ? true : undefined}
          onChange={form.changeText('description')}
        />
        {descriptionErrors.length > 0 && <p className="field-error">{descriptionErrors.join(' ')}</p>}
      </div>
      <CheckboxField
        id={`${props.idPrefix}-mailNotification`}
        label={t('fields.mailNotification')}
        hint={t('hints.mailNotification')}
        checked={input.mailNotification}
        onChange={(event) => form.setInput((previous) => ({ ...previous, mailNotification: event.target.checked }))}
      />
      {props.groups && (
        <fieldset
          id={`${props.idPrefix}-groups`}
          tabIndex={-1}
          className="field choice-list"
          aria-invalid={problems.groupIds ? true : undefined}
          aria-describedby={`${props.idPrefix}-groups-hint`}
        >
          <legend>{t('fields.groupIds')}</legend>
          <p id={`${props.idPrefix}-groups-hint`} className="hint">
            {t('hints.groupIds')}
          </p>
          {props.groups.length === 0 && <p className="muted">{t('form.noGroups')}</p>}
          {props.groups.map((group) => (
            <CheckboxField
              key={group.id}
              id={`${props.idPrefix}-group-${group.id}`}
              label={group.name}
              checked={input.groupIds.includes(group.id)}
              onChange={(event) => toggleGroup(group.id, event.target.checked)}
            />
          ))}
          {problems.groupIds && <p className="field-error">{problems.groupIds.map(text).join(' ')}</p>}
        </fieldset>
      )}
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
