import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** What the inputs need of a custom property definition (listProperties) or of a stored value (getDocument). */
export interface PropertyField {
  propertyId: string;
  name: string;
  inputType: number;
  editable: boolean;
  options: { id: string; label: string }[];
  lockVersion?: number;
  optionsVersion?: number;
}

/** A property's value as the inputs keep it: text for numbers and dates, the option id for enums. */
export type PropertyDraft = Record<string, string>;

/** The drafts as the contract's PropertyValueInput list (only the editable fields; '' removes a value). */
export function propertyInputs(fields: PropertyField[], drafts: PropertyDraft, initial: PropertyDraft = {}) {
  return fields
    .filter((field) => field.editable && (drafts[field.propertyId] ?? '') !== (initial[field.propertyId] ?? ''))
    .map((field) => ({
      propertyId: field.propertyId,
      value: drafts[field.propertyId] ?? '',
      ...(field.lockVersion === undefined ? {} : { lockVersion: field.lockVersion }),
      ...(field.optionsVersion === undefined ? {} : { optionsVersion: field.optionsVersion }),
    }));
}

/** One input per document-scope property: text, number, date (yyyy-MM-dd) or a select of the enum's options. */
export function PropertyInputs(props: {
  fields: PropertyField[];
  drafts: PropertyDraft;
  errors: Record<string, string[]>;
  onChange: (propertyId: string, value: string) => void;
}) {
  const { t } = useTranslation('documents');
  const id = useId();
  if (props.fields.length === 0) return <p className="muted">{t('properties.none')}</p>;
  return (
    <div className="form-grid">
      {props.fields.map((field) => {
        const inputId = `${id}-${field.propertyId}`;
        const errors = props.errors[field.propertyId] ?? [];
        const common = {
          id: inputId,
          disabled: !field.editable,
          value: props.drafts[field.propertyId] ?? '',
          'aria-invalid': errors.length > 0 || undefined,
          'aria-describedby': errors.length > 0 ? `${inputId}-error` : undefined,
          onChange: (event: { target: { value: string } }) => props.onChange(field.propertyId, event.target.value),
        };
        return (
          <div className="field" key={field.propertyId}>
            <label htmlFor={inputId}>
              {field.editable ? field.name : t('properties.readOnly', { name: field.name })}
            </label>
            {field.inputType === 40 ? (
              <select {...common}>
                <option value="">{t('properties.enumNone')}</option>
                {field.options.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...common}
                type={field.inputType === 30 ? 'date' : 'text'}
                inputMode={field.inputType === 10 ? 'decimal' : undefined}
                autoComplete="off"
              />
            )}
            {errors.length > 0 && (
              <div id={`${inputId}-error`} className="field-error">
                {errors.map((error) => (
                  <p key={error}>{error}</p>
                ))}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
