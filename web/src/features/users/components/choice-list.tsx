import { useTranslation } from 'react-i18next';

/**
 * A multi-select as a group of checkboxes (readable, and usable on a phone): a fieldset whose legend names it,
 * scrolling when long. Errors and hint are tied to the fieldset.
 */
export function ChoiceList(props: {
  id: string;
  legend: string;
  hint?: string;
  choices: { id: string; name: string }[];
  selected: string[];
  onChange: (selected: string[]) => void;
  errors: string[];
  emptyText: string;
  truncated?: { shown: number; total: number };
  required?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation('users');
  const { id, selected } = props;
  const describedBy = [props.hint ? `${id}-hint` : null, props.errors.length > 0 ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  const toggle = (choice: string, on: boolean) =>
    props.onChange(on ? [...selected, choice] : selected.filter((value) => value !== choice));
  return (
    <fieldset
      id={id}
      className="choice-list"
      tabIndex={-1}
      aria-describedby={describedBy || undefined}
      aria-invalid={props.errors.length > 0 ? true : undefined}
      aria-required={props.required}
    >
      <legend>{props.legend}</legend>
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
      {props.choices.length === 0 ? (
        <p className="muted">{props.emptyText}</p>
      ) : (
        <ul className="choice-items">
          {props.choices.map((choice) => (
            <li key={choice.id} className="checkbox">
              <input
                id={`${id}-${choice.id}`}
                type="checkbox"
                checked={selected.includes(choice.id)}
                disabled={props.disabled}
                onChange={(event) => toggle(choice.id, event.target.checked)}
              />
              <label htmlFor={`${id}-${choice.id}`}>{choice.name}</label>
            </li>
          ))}
        </ul>
      )}
      {props.truncated && <p className="hint">{t('form.choicesTruncated', props.truncated)}</p>}
      {props.errors.length > 0 && (
        <div id={`${id}-error`} className="field-error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
    </fieldset>
  );
}
