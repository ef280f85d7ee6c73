import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field.tsx';
import { type FieldProblems, newOptionKey, type OptionRow } from '../form-state.ts';
import { controlId, useProblemText } from './problem-text.ts';

/**
 * The enum options in their order: rename in place, add at the end, move up or down, delete (not an option in
 * use). Changes are sent with the form, guarded by the options' own version.
 */
export function OptionsEditor(props: {
  idPrefix: string;
  rows: OptionRow[];
  problems: FieldProblems;
  disabled?: boolean;
  onChange: (rows: OptionRow[]) => void;
}) {
  const { t } = useTranslation('properties');
  const text = useProblemText();
  const { rows, onChange } = props;
  const move = (index: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    onChange(next);
  };
  const listProblems = (props.problems.options ?? []).map(text);
  return (
    <div className="property-options">
      {rows.length === 0 && <p className="muted">{t('options.empty')}</p>}
      <ol className="property-option-list">
        {rows.map((row, index) => {
          const name = row.label.trim() || t('options.unnamed');
          return (
            <li key={row.key} className="property-option">
              <FormField
                id={controlId(props.idPrefix, `options/${index}/label`)}
                label={t('options.label', { number: index + 1 })}
                value={row.label}
                maxLength={100}
                autoComplete="off"
                disabled={props.disabled}
                hint={row.inUse ? t('options.inUse') : undefined}
                errors={(props.problems[`options/${index}/label`] ?? []).map(text)}
                onChange={(event) =>
                  onChange(rows.map((r) => (r.key === row.key ? { ...r, label: event.target.value } : r)))
                }
              />
              <div className="property-option-actions">
                <button
                  type="button"
                  className="button"
                  aria-label={t('options.moveUp', { label: name })}
                  disabled={props.disabled || index === 0}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="button"
                  aria-label={t('options.moveDown', { label: name })}
                  disabled={props.disabled || index === rows.length - 1}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="button danger"
                  aria-label={t('options.remove', { label: name })}
                  disabled={props.disabled || row.inUse}
                  onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
                >
                  ×
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {listProblems.length > 0 && (
        <div id={`${controlId(props.idPrefix, 'options')}-error`} className="field-error">
          {listProblems.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      )}
      <button
        type="button"
        id={controlId(props.idPrefix, 'options')}
        className="button"
        disabled={props.disabled}
        aria-describedby={listProblems.length > 0 ? `${controlId(props.idPrefix, 'options')}-error` : undefined}
        onClick={() => onChange([...rows, { key: newOptionKey(), label: '', inUse: false }])}
      >
        {t('options.add')}
      </button>
    </div>
  );
}
