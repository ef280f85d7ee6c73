import { useTranslation } from 'react-i18next';
import type { DocumentRow } from '../validation.ts';

/** The documents of a business flow template: a document template and its template ID in each row. */
export function DocumentListEditor(props: {
  id: string;
  value: DocumentRow[];
  templates: { id: string; name: string }[];
  errors: string[];
  onChange: (documents: DocumentRow[]) => void;
}) {
  const { t } = useTranslation('templates');
  const { value, onChange } = props;
  const set = (index: number, patch: Partial<DocumentRow>) =>
    onChange(value.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const label = (field: string, index: number) =>
    `${t(`documents.${field}`)} (${t('documents.rowLabel', { row: index + 1 })})`;

  return (
    <fieldset className="field" aria-describedby={`${props.id}-hint${props.errors.length ? ` ${props.id}-error` : ''}`}>
      <legend>{t('fields.documents')}</legend>
      <p id={`${props.id}-hint`} className="hint">
        {t('hints.documents')}
      </p>
      {value.length === 0 ? (
        <p className="muted">{t('documents.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" id={props.id}>
            <thead>
              <tr>
                <th scope="col">{t('documents.template')}</th>
                <th scope="col">{t('documents.templateId')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('documents.remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {value.map((row, index) => (
                <tr key={index}>
                  <td>
                    <select
                      aria-label={label('template', index)}
                      value={row.documentTemplateId}
                      onChange={(e) => set(index, { documentTemplateId: e.target.value })}
                    >
                      <option value="">{t('documents.choose')}</option>
                      {props.templates.map((template) => (
                        <option key={template.id} value={template.id}>
                          {template.name}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <input
                      type="text"
                      maxLength={100}
                      aria-label={label('templateId', index)}
                      value={row.templateId}
                      onChange={(e) => set(index, { templateId: e.target.value })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={t('documents.removeLabel', { row: index + 1 })}
                      onClick={() => onChange(value.filter((_, i) => i !== index))}
                    >
                      {t('documents.remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.errors.length > 0 && (
        <div id={`${props.id}-error`} className="field-error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
      <button
        type="button"
        className="button small"
        onClick={() => onChange([...value, { documentTemplateId: '', templateId: `D${value.length + 1}` }])}
      >
        {t('documents.add')}
      </button>
    </fieldset>
  );
}
