import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPropertyValue, INPUT_TYPES } from '../../../../../core/contract/property-values.ts';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { definitionOf, type PropertyForm } from '../form-state.ts';
import { useProblemText } from './problem-text.ts';

/** Today in Japan, the calendar the server's "from tomorrow" rule uses. */
const japanToday = () => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);

/** "Try a value": runs the shared value validator in the browser on the definition being edited. */
export function ValuePreview({ idPrefix, form }: { idPrefix: string; form: PropertyForm }) {
  const { t } = useTranslation('properties');
  const text = useProblemText();
  const [value, setValue] = useState('');
  const today = japanToday();
  const definition = definitionOf(form);
  const result = checkPropertyValue(definition, value, { today });
  const id = `${idPrefix}-preview`;
  const outcome = result.ok
    ? result.value === null
      ? t('preview.empty')
      : t('preview.accepted', {
          value:
            definition.inputType === INPUT_TYPES.enum
              ? (definition.options.find((o) => o.id === result.value)?.label ?? result.value)
              : result.value,
        })
    : result.problems.map((p) => text({ code: p.code, ...(p.params ? { params: p.params } : {}) })).join(' ');
  return (
    <div className="property-preview">
      <p className="hint">{t('preview.hint')}</p>
      {form.inputType === INPUT_TYPES.enum ? (
        <SelectField
          id={id}
          label={t('preview.label')}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          options={[
            { value: '', label: '—' },
            ...definition.options.map((o) => ({ value: o.id ?? '', label: o.label || t('options.unnamed') })),
          ]}
        />
      ) : form.inputType === INPUT_TYPES.string && form.allowNewline ? (
        <div className="field">
          <label htmlFor={id}>{t('preview.label')}</label>
          <textarea id={id} value={value} rows={3} onChange={(event) => setValue(event.target.value)} />
        </div>
      ) : (
        <FormField
          id={id}
          label={t('preview.label')}
          value={value}
          autoComplete="off"
          hint={form.inputType === INPUT_TYPES.date ? t('preview.today', { date: today }) : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
      )}
      <p role="status" aria-live="polite" className={result.ok ? 'preview-ok' : 'field-error'}>
        {outcome}
      </p>
    </div>
  );
}
