import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { TableScroll } from '../../../components/data-list.tsx';
import { useReplaceDocumentTasks } from '../api/replace-document-tasks.ts';
import type { TaskRow, TaskRuleContext } from '../task-rules.ts';
import { type Choice, TaskEditor } from './task-editor.tsx';

/** A task of the document as getDocument answers it. */
export interface DocumentTask {
  id: string;
  order: number;
  type: 'sign' | 'approve' | 'read';
  role: { id: string; name: string } | null;
  assignee: { kind: string; id: string | null; name: string | null };
  required: boolean;
  templateId: string | null;
  status: string;
}

/** The stored tasks as editor rows. */
export function rowsOf(tasks: DocumentTask[]): TaskRow[] {
  return tasks.map((task) => ({
    key: task.id,
    order: task.order,
    type: task.type,
    assignee: task.assignee.id ? `${task.assignee.kind}:${task.assignee.id}` : '',
    roleId: task.role?.id ?? '',
    required: task.required,
    templateId: task.templateId ?? '',
  }));
}

function TaskTable({ tasks }: { tasks: DocumentTask[] }) {
  const { t } = useTranslation('documents');
  if (tasks.length === 0) return <p className="muted">{t('editor.empty')}</p>;
  return (
    <TableScroll label={t('editor.tableLabel')}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('editor.order')}</th>
            <th scope="col">{t('editor.type')}</th>
            <th scope="col">{t('editor.assignee')}</th>
            <th scope="col">{t('editor.role')}</th>
            <th scope="col">{t('editor.required')}</th>
            <th scope="col">{t('editor.status')}</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task.id}>
              <td className="cell-number">{task.order}</td>
              <td>{t(`taskTypes.${task.type}`)}</td>
              <td className="cell-wrap">{task.assignee.name ?? '—'}</td>
              <td>{task.role?.name ?? '—'}</td>
              <td>{task.required ? '✓' : '—'}</td>
              <td>{t(`taskStatuses.${task.status}`, { defaultValue: task.status })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * The document's tasks: the editor while the plan may change (caller of the owner organization with edit rights,
 * document in progress, no task done yet), otherwise the table with each task's status.
 */
export function TasksPanel(props: {
  documentId: string;
  lockVersion: number;
  tasks: DocumentTask[];
  editable: boolean;
  locked: boolean;
  assignees: Choice[];
  roles: Choice[];
  context: TaskRuleContext;
  onReload: () => void;
}) {
  const { t } = useTranslation('documents');
  const replace = useReplaceDocumentTasks();
  const save = async (rows: TaskRow[]) => {
    await replace.mutateAsync({ documentId: props.documentId, rows, lockVersion: props.lockVersion });
    toast.success(t('editor.saved'));
  };
  return (
    <section aria-labelledby="document-tasks-title" className="panel">
      <h2 id="document-tasks-title">{t('editor.title')}</h2>
      {props.editable && !props.locked ? (
        <TaskEditor
          key={props.lockVersion}
          initial={rowsOf(props.tasks)}
          assignees={props.assignees}
          roles={props.roles}
          context={props.context}
          onSave={save}
          onReload={props.onReload}
        />
      ) : (
        <>
          {props.editable && props.locked && <p className="notice">{t('editor.locked')}</p>}
          <TaskTable tasks={props.tasks} />
        </>
      )}
    </section>
  );
}
