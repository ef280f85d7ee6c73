import { useTranslation } from 'react-i18next';
import { newTaskRow, type TaskRow, TASK_TYPES, MAX_TASKS } from '../validation.ts';
import { RowListFieldset } from './row-list-fieldset.tsx';

interface Choice {
  id: string;
  name: string;
}

/**
 * The task list of a document template: one row per task with its order (equal orders run in parallel), type, own
 * group, optional role, required flag and task template ID.
 */
export function TaskListEditor(props: {
  id: string;
  value: TaskRow[];
  groups: Choice[];
  roles: Choice[];
  errors: string[];
  onChange: (tasks: TaskRow[]) => void;
}) {
  const { t } = useTranslation('templates');
  const { value, onChange } = props;
  const set = (index: number, patch: Partial<TaskRow>) =>
    onChange(value.map((task, i) => (i === index ? { ...task, ...patch } : task)));
  const label = (field: string, index: number) => t('tasks.fieldInRow', { field: t(`tasks.${field}`), row: index + 1 });

  return (
    <RowListFieldset
      id={props.id}
      section="tasks"
      value={value}
      errors={props.errors}
      columns={[
        t('tasks.order'),
        t('tasks.type'),
        t('tasks.group'),
        t('tasks.role'),
        t('tasks.required'),
        t('tasks.templateId'),
      ]}
      onChange={onChange}
      addDisabled={value.length >= MAX_TASKS}
      onAdd={() => onChange([...value, newTaskRow(value, props.groups[0]?.id ?? '')])}
      cells={(task, index) => (
        <>
          <td>
            <input
              type="number"
              min={1}
              max={MAX_TASKS}
              inputMode="numeric"
              aria-label={label('order', index)}
              value={task.order}
              onChange={(e) => set(index, { order: e.target.value })}
            />
          </td>
          <td>
            <select
              aria-label={label('type', index)}
              value={task.type}
              onChange={(e) => set(index, { type: e.target.value as TaskRow['type'] })}
            >
              {TASK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`taskTypes.${type}`)}
                </option>
              ))}
            </select>
          </td>
          <td>
            <select
              aria-label={label('group', index)}
              value={task.groupId}
              onChange={(e) => set(index, { groupId: e.target.value })}
            >
              <option value="">{t('tasks.chooseGroup')}</option>
              {props.groups.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
          </td>
          <td>
            <select
              aria-label={label('role', index)}
              value={task.roleId}
              onChange={(e) => set(index, { roleId: e.target.value })}
            >
              <option value="">{t('tasks.noRole')}</option>
              {props.roles.map((role) => (
                <option key={role.id} value={role.id}>
                  {role.name}
                </option>
              ))}
            </select>
          </td>
          <td>
            <input
              type="checkbox"
              aria-label={label('required', index)}
              checked={task.required}
              onChange={(e) => set(index, { required: e.target.checked })}
            />
          </td>
          <td>
            <input
              type="text"
              maxLength={100}
              aria-label={label('templateId', index)}
              value={task.templateId}
              onChange={(e) => set(index, { templateId: e.target.value })}
            />
          </td>
        </>
      )}
    />
  );
}
