import { useTranslation } from 'react-i18next';
import type { DocumentRow } from '../validation.ts';
import { RowListFieldset } from './row-list-fieldset.tsx';

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
    t('documents.fieldInRow', { field: t(`documents.${field}`), row: index + 1 });

  return (
    <RowListFieldset
      id={props.id}
      section="documents"
      value={value}
      errors={props.errors}
      columns={[t('documents.template'), t('documents.templateId')]}
      onChange={onChange}
      onAdd={() => onChange([...value, { documentTemplateId: '', templateId: `D${value.length + 1}` }])}
      cells={(row, index) => (
        <>
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
        </>
      )}
    />
  );
}
