import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INPUT_TYPES, type InputType, NUMBER_UNITS } from '../../../../../core/contract/property-values.ts';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { type FieldProblems, type PropertyForm as Form, serverProblems, validateForm } from '../form-state.ts';
import { OptionsEditor } from './options-editor.tsx';
import { controlId, useProblemText } from './problem-text.ts';
import { ValuePreview } from './value-preview.tsx';

type TextSetting = 'name' | 'systemLinkId' | 'integerLength' | 'decimalLength' | 'minValue' | 'maxValue';
type FlagSetting = 'required' | 'allowNewline' | 'allowFullWidth' | 'afterTomorrow' | 'publicToClient';

/**
 * A custom property's settings, for creating and editing: the rules shown follow the input type, the options editor
 * appears for enums, and "try a value" checks a value against what is being edited. The shared definition validator
 * runs before sending; the server's field problems show next to their fields, other refusals above the form (409s
 * with a reload action).
 */
export function PropertyForm(props: {
  idPrefix: string;
  initial: Form;
  submitLabel: string;
  inUse?: boolean;
  readOnly?: boolean;
  onSubmit: (form: Form) => Promise<unknown>;
  onReload?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation(['properties', 'errors']);
  const text = useProblemText();
  const [form, setForm] = useState(props.initial);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const id = (path: string) => controlId(props.idPrefix, path);
  const disabled = props.readOnly || pending;

  const change = (patch: Partial<Form>, ...fields: string[]) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setProblems((previous) => Object.fromEntries(Object.entries(previous).filter(([k]) => !fields.includes(k))));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validateForm(form);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    setPending(true);
    try {
      await props.onSubmit(form);
    } catch (error) {
      // 422s belong next to their fields; conflicts (409) are about the whole form and offer a reload.
      const placed = error instanceof ApiError && error.status === 422 ? serverProblems(error.errors) : {};
      setProblems(placed);
      if (Object.keys(placed).length === 0) setFailure(error);
      else setAttempt((n) => n + 1);
    } finally {
      setPending(false);
    }
  };

  const labelOf = (path: string) => {
    const option = /^options\/(\d+)\/label$/.exec(path);
    if (option) return t('options.label', { number: Number(option[1]) + 1 });
    return path === 'options' ? t('sections.options') : t(`fields.${path}`);
  };
  const summary = Object.entries(problems).flatMap(([path, list]) =>
    list.map((problem) => ({ fieldId: id(path), text: `${labelOf(path)}: ${text(problem)}` })),
  );

  const textField = (name: TextSetting, extra: { hint?: string; numeric?: boolean; required?: boolean } = {}) => (
    <FormField
      id={id(name)}
      name={name}
      label={t(`fields.${name}`)}
      value={form[name]}
      hint={extra.hint}
      required={extra.required}
      inputMode={extra.numeric ? 'decimal' : undefined}
      autoComplete="off"
      maxLength={extra.numeric ? 20 : 100}
      disabled={disabled}
      errors={(problems[name] ?? []).map(text)}
      onChange={(event) => change({ [name]: event.target.value }, name)}
    />
  );
  const lengthField = (name: 'minLength' | 'maxLength', hint?: string) => (
    <FormField
      id={id(name)}
      label={t(`fields.${name}`)}
      value={form[name]}
      hint={hint}
      inputMode="numeric"
      maxLength={5}
      disabled={disabled}
      errors={(problems[name] ?? []).map(text)}
      onChange={(event) => change({ [name]: event.target.value }, name)}
    />
  );
  const flag = (name: FlagSetting, hint?: string) => (
    <CheckboxField
      id={id(name)}
      label={t(`fields.${name}`)}
      hint={hint}
      checked={form[name]}
      disabled={disabled}
      errors={(problems[name] ?? []).map(text)}
      onChange={(event) =>
        change(
          name === 'publicToClient' && !event.target.checked
            ? { publicToClient: false, editableByClient: false }
            : { [name]: event.target.checked },
          name,
          'editableByClient',
        )
      }
    />
  );
  const typeOptions = ([10, 20, 30, 40] as const).map((v) => ({ value: v, label: t(`inputTypes.${v}`) }));

  return (
    <form onSubmit={submit} noValidate className="admin-form property-form">
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      {failure instanceof ApiError && failure.code === 'PROPERTY_OPTIONS_CHANGED' && props.onReload && (
        <button type="button" className="button" onClick={props.onReload}>
          {t('detail.reload')}
        </button>
      )}
      <ErrorSummary title={t('form.summaryTitle')} items={summary} focusKey={attempt} />
      <fieldset>
        <legend>{t('sections.basic')}</legend>
        <div className="form-grid">
          {textField('name', { required: true })}
          {textField('systemLinkId', { hint: t('hints.systemLinkId') })}
          <SelectField
            id={id('inputType')}
            label={t('fields.inputType')}
            value={form.inputType}
            disabled={disabled || props.inUse}
            hint={props.inUse ? t('hints.inUse') : undefined}
            options={typeOptions}
            onChange={(event) => change({ inputType: Number(event.target.value) as InputType }, 'inputType')}
          />
          <SelectField
            id={id('scope')}
            label={t('fields.scope')}
            value={form.scope}
            disabled={disabled || props.inUse}
            options={([10, 20] as const).map((v) => ({ value: v, label: t(`scopes.${v}`) }))}
            onChange={(event) => change({ scope: Number(event.target.value) as 10 | 20 }, 'scope')}
          />
        </div>
        {flag('required')}
      </fieldset>
      {form.inputType !== INPUT_TYPES.enum && form.inputType !== INPUT_TYPES.date && (
        <fieldset>
          <legend>{t('sections.rules')}</legend>
          {form.inputType === INPUT_TYPES.number ? (
            <div className="form-grid">
              <SelectField
                id={id('numberUnit')}
                label={t('fields.numberUnit')}
                value={form.numberUnit}
                disabled={disabled}
                hint={form.numberUnit === NUMBER_UNITS.yen ? t('hints.yen') : undefined}
                options={([10, 20] as const).map((v) => ({ value: v, label: t(`units.${v}`) }))}
                onChange={(event) => change({ numberUnit: Number(event.target.value) as 10 | 20 })}
              />
              {textField('integerLength', { numeric: true, hint: t('hints.digits') })}
              {textField('decimalLength', { numeric: true })}
              {textField('minValue', { numeric: true, hint: t('hints.bounds') })}
              {textField('maxValue', { numeric: true })}
            </div>
          ) : (
            <>
              <div className="form-grid">
                {lengthField('minLength')}
                {lengthField('maxLength', t('hints.maxLength'))}
              </div>
              {flag('allowNewline')}
              {flag('allowFullWidth', t('hints.allowFullWidth'))}
            </>
          )}
        </fieldset>
      )}
      {form.inputType === INPUT_TYPES.date && (
        <fieldset>
          <legend>{t('sections.rules')}</legend>
          {flag('afterTomorrow')}
        </fieldset>
      )}
      {form.inputType === INPUT_TYPES.enum && (
        <fieldset>
          <legend>{t('sections.options')}</legend>
          <OptionsEditor
            idPrefix={props.idPrefix}
            rows={form.options}
            problems={problems}
            disabled={disabled}
            onChange={(options) =>
              change({ options }, 'options', ...Object.keys(problems).filter((k) => k.startsWith('options/')))
            }
          />
        </fieldset>
      )}
      <fieldset>
        <legend>{t('sections.display')}</legend>
        {flag('publicToClient')}
        <CheckboxField
          id={id('editableByClient')}
          label={t('fields.editableByClient')}
          hint={t('hints.editableByClient')}
          checked={form.editableByClient}
          disabled={disabled || !form.publicToClient}
          errors={(problems.editableByClient ?? []).map(text)}
          onChange={(event) => change({ editableByClient: event.target.checked }, 'editableByClient')}
        />
      </fieldset>
      <fieldset>
        <legend>{t('sections.preview')}</legend>
        <ValuePreview idPrefix={props.idPrefix} form={form} />
      </fieldset>
      {!props.readOnly && (
        <FormActions
          pending={pending}
          submitLabel={props.submitLabel}
          sendingLabel={t('form.sending')}
          cancelLabel={t('form.cancel')}
          onCancel={props.onCancel}
        />
      )}
    </form>
  );
}
