import { useTranslation } from 'react-i18next';
import { CAPABILITIES, setPermission, TASK_TYPES, type TaskPermissions } from '../validation.ts';

/** Which task types (rows) holders of the role may execute or view (columns), as a table of checkboxes. */
export function TaskMatrix(props: {
  id: string;
  value: TaskPermissions;
  onChange: (value: TaskPermissions) => void;
  errors: string[];
}) {
  const { t } = useTranslation('roles');
  return (
    <fieldset id={props.id} className="task-matrix" tabIndex={-1} aria-describedby={`${props.id}-hint`}>
      <legend>{t('fields.taskPermissions')}</legend>
      <p id={`${props.id}-hint`} className="hint">
        {t('hints.taskPermissions')}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('matrix.taskType')}</th>
            {CAPABILITIES.map((capability) => (
              <th key={capability} scope="col">
                {t(`capabilities.${capability}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {TASK_TYPES.map((type) => (
            <tr key={type}>
              <th scope="row">{t(`tasks.${type}`)}</th>
              {CAPABILITIES.map((capability) => (
                <td key={capability}>
                  <input
                    type="checkbox"
                    id={`${props.id}-${type}-${capability}`}
                    aria-label={t('matrix.cell', {
                      task: t(`tasks.${type}`),
                      capability: t(`capabilities.${capability}`),
                    })}
                    checked={props.value[type][capability]}
                    onChange={(event) =>
                      props.onChange(setPermission(props.value, type, capability, event.target.checked))
                    }
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {props.errors.length > 0 && (
        <div className="field-error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** The permissions of a role in one line per task type it touches ("Sign: Execute, View"). */
export function PermissionSummary({ value }: { value: TaskPermissions }) {
  const { t, i18n } = useTranslation('roles');
  const list = new Intl.ListFormat(i18n.language, { style: 'narrow', type: 'unit' });
  const lines = TASK_TYPES.filter((type) => value[type].view || value[type].execute).map((type) =>
    t('matrix.summary', {
      task: t(`tasks.${type}`),
      capabilities: list.format(CAPABILITIES.filter((c) => value[type][c]).map((c) => t(`capabilities.${c}`))),
    }),
  );
  if (lines.length === 0) return <span className="muted">{t('list.none')}</span>;
  return (
    <ul className="plain-list">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
