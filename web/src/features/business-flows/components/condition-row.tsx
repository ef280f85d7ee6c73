import { useTranslation } from 'react-i18next';
import { INPUT_TYPES } from '../../../../../core/contract/property-values.ts';
import { FormField } from '../../../components/form-field.tsx';
import type { ConditionProblem } from '../condition-check.ts';
import type { PropertyCondition } from '../search-params.ts';

/** What a condition row shows of its property. */
export interface ConditionPropertyView {
  id: string;
  name: string;
  inputType: number;
  options: readonly { id?: string; label: string }[];
}

/** One custom property condition: contains text, from/to bounds, or option checkboxes; and its remove button. */
export function ConditionRow(props: {
  idPrefix: string;
  condition: PropertyCondition;
  property: ConditionPropertyView | undefined;
  problems: ConditionProblem[];
  onChange: (condition: PropertyCondition) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation(['businessFlows', 'errors']);
  const { condition, property } = props;
  const name = property?.name ?? t('search.unknownProperty');
  const id = `${props.idPrefix}-${condition.propertyId}`;
  const errorsOf = (part: ConditionProblem['part']) =>
    props.problems.filter((p) => p.part === part).map((p) => t(`errors:${p.code}`));
  const dateType = property?.inputType === INPUT_TYPES.date;

  return (
    <li className="property-option">
      {condition.kind === 'contains' && (
        <FormField
          id={`${id}-text`}
          label={t('search.contains', { name })}
          value={condition.text}
          autoComplete="off"
          maxLength={200}
          errors={errorsOf('text')}
          onChange={(event) => props.onChange({ ...condition, text: event.target.value })}
        />
      )}
      {condition.kind === 'range' &&
        (['from', 'to'] as const).map((side) => (
          <FormField
            key={side}
            id={`${id}-${side}`}
            label={t(side === 'from' ? 'search.rangeFrom' : 'search.rangeTo', { name })}
            value={condition[side]}
            autoComplete="off"
            inputMode={dateType ? undefined : 'decimal'}
            placeholder={dateType ? 'yyyy-MM-dd' : undefined}
            errors={errorsOf(side)}
            onChange={(event) => props.onChange({ ...condition, [side]: event.target.value })}
          />
        ))}
      {condition.kind === 'options' && (
        <fieldset className="field choice-list">
          <legend>{t('search.options', { name })}</legend>
          {(property?.options ?? []).map((option) => (
            <div className="checkbox" key={option.id}>
              <input
                id={`${id}-option-${option.id}`}
                type="checkbox"
                checked={condition.optionIds.includes(option.id ?? '')}
                onChange={(event) =>
                  props.onChange({
                    ...condition,
                    optionIds: event.target.checked
                      ? [...condition.optionIds, option.id ?? '']
                      : condition.optionIds.filter((o) => o !== option.id),
                  })
                }
              />
              <label htmlFor={`${id}-option-${option.id}`}>{option.label}</label>
            </div>
          ))}
        </fieldset>
      )}
      {errorsOf('property').length > 0 && <p className="field-error">{errorsOf('property').join(' ')}</p>}
      <div className="property-option-actions">
        <button
          type="button"
          className="button small danger"
          aria-label={t('search.removeLabel', { name })}
          onClick={props.onRemove}
        >
          {t('search.remove')}
        </button>
      </div>
    </li>
  );
}
