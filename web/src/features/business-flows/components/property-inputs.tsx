import { useTranslation } from 'react-i18next';
import { INPUT_TYPES } from '../../../../../core/contract/property-values.ts';
import { FormField } from '../../../components/form-field.tsx';
import type { ValueDefinition, ValueProblem } from '../property-values.ts';

/** The input id of a property's value within a form. */
export const valueInputId = (idPrefix: string, propertyId: string) => `${idPrefix}-property-${propertyId}`;

/** The messages of value problems (errors.json, with the rule's parameters). */
export function useValueProblemText() {
  const { t } = useTranslation('errors');
  return (problem: ValueProblem) => t(problem.code, problem.params);
}

/**
 * One input per custom property by input type (text or textarea, number, date, enum select), each showing its
 * problems; `touched` decides whose live problems show (a value the user has not touched yet shows none).
 */
export function PropertyInputs(props: {
  idPrefix: string;
  definitions: readonly ValueDefinition[];
  values: Record<string, string>;
  problems: Record<string, ValueProblem[]>;
  disabled?: (propertyId: string) => boolean;
  onChange: (propertyId: string, value: string) => void;
}) {
  const { t } = useTranslation('businessFlows');
  const text = useValueProblemText();
  if (props.definitions.length === 0) return <p className="muted">{t('properties.none')}</p>;
  return (
    <div className="form-grid">
      {props.definitions.map((definition) => {
        const id = valueInputId(props.idPrefix, definition.id);
        const a = definition.attributes;
        const errors = (props.problems[definition.id] ?? []).map(text);
        const value = props.values[definition.id] ?? '';
        const disabled = props.disabled?.(definition.id) ?? false;
        const change = (next: string) => props.onChange(definition.id, next);
        if (a.inputType === INPUT_TYPES.enum || (a.inputType === INPUT_TYPES.string && a.allowNewline)) {
          return (
            <div className="field" key={definition.id}>
              <label htmlFor={id}>{a.name}</label>
              {a.inputType === INPUT_TYPES.enum ? (
                <select
                  id={id}
                  value={value}
                  disabled={disabled}
                  required={a.required}
                  aria-invalid={errors.length > 0 ? true : undefined}
                  aria-describedby={errors.length > 0 ? `${id}-error` : undefined}
                  onChange={(event) => change(event.target.value)}
                >
                  <option value="">{t('properties.choose')}</option>
                  {a.options.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : (
                <textarea
                  id={id}
                  rows={3}
                  value={value}
                  disabled={disabled}
                  required={a.required}
                  aria-invalid={errors.length > 0 ? true : undefined}
                  aria-describedby={errors.length > 0 ? `${id}-error` : undefined}
                  onChange={(event) => change(event.target.value)}
                />
              )}
              {errors.length > 0 && (
                <div id={`${id}-error`} className="field-error">
                  {errors.map((error) => (
                    <p key={error}>{error}</p>
                  ))}
                </div>
              )}
            </div>
          );
        }
        return (
          <FormField
            key={definition.id}
            id={id}
            label={a.name}
            value={value}
            disabled={disabled}
            required={a.required}
            errors={errors}
            autoComplete="off"
            inputMode={a.inputType === INPUT_TYPES.number ? 'decimal' : undefined}
            placeholder={a.inputType === INPUT_TYPES.date ? 'yyyy-MM-dd' : undefined}
            onChange={(event) => change(event.target.value)}
          />
        );
      })}
    </div>
  );
}
