import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The frame of a template's row list (its tasks or its documents): legend and hint, a table of rows each with a remove
 * button, the list's errors and an add button. Texts come from the `section` part of the templates catalogue.
 */
export function RowListFieldset<Row>(props: {
  id: string;
  section: 'tasks' | 'documents';
  value: Row[];
  errors: string[];
  columns: string[];
  cells: (row: Row, index: number) => ReactNode;
  onChange: (rows: Row[]) => void;
  onAdd: () => void;
  addDisabled?: boolean;
}) {
  const { t } = useTranslation('templates');
  const { id, section, value, onChange } = props;

  return (
    <fieldset className="field" aria-describedby={`${id}-hint${props.errors.length ? ` ${id}-error` : ''}`}>
      <legend>{t(`fields.${section}`)}</legend>
      <p id={`${id}-hint`} className="hint">
        {t(`hints.${section}`)}
      </p>
      {value.length === 0 ? (
        <p className="muted">{t(`${section}.empty`)}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" id={id}>
            <thead>
              <tr>
                {props.columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{t(`${section}.remove`)}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {value.map((row, index) => (
                <tr key={index}>
                  {props.cells(row, index)}
                  <td>
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={t(`${section}.removeLabel`, { row: index + 1 })}
                      onClick={() => onChange(value.filter((_, i) => i !== index))}
                    >
                      {t(`${section}.remove`)}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.errors.length > 0 && (
        <div id={`${id}-error`} className="field-error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
      <button type="button" className="button small" disabled={props.addDisabled} onClick={props.onAdd}>
        {t(`${section}.add`)}
      </button>
    </fieldset>
  );
}
