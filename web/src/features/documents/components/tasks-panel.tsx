import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { TableScroll } from '../../../components/data-list.tsx';
import { useDocumentTasks } from '../api/get-document-tasks.ts';
import { useSignatureTypes } from '../api/list-signature-types.ts';
import { useReplaceDocumentTasks } from '../api/replace-document-tasks.ts';
import type { SignatureType, TaskRow, TaskRuleContext, TwoFactor } from '../task-rules.ts';
import { ALL_SIGNATURE_TYPES, type Choice, type SignatureTypeChoice, TaskEditor } from './task-editor.tsx';

/** A task of the document as getDocument answers it. */
export interface DocumentTask {
  id: string;
  order: number;
  type: 'sign' | 'approve' | 'read';
  role: { id: string; name: string } | null;
  /** A one-time user's carries their e-mail address too. */
  assignee: { kind: string; id: string | null; name: string | null; email?: string | null };
  required: boolean;
  templateId: string | null;
  status: string;
}

/**
 * How each sign task signs, by task id (getDocumentTasks; the document's own task list leaves it out): its type,
 * code channel, and the boxes its sender placed, which an edit of the plan keeps.
 */
export type SigningOfTask = Map<
  string,
  { signatureType: SignatureType | null; twoFactor: TwoFactor } & Pick<TaskRow, 'fields' | 'allowSignerPlacements'>
>;

/** The stored tasks as editor rows, sign tasks with their signature type and two-factor channel. */
export function rowsOf(tasks: DocumentTask[], signing: SigningOfTask = new Map()): TaskRow[] {
  return tasks.map((task) => {
    const stored = signing.get(task.id);
    return {
      key: task.id,
      order: task.order,
      type: task.type,
      assignee: task.assignee.id ? `${task.assignee.kind}:${task.assignee.id}` : '',
      roleId: task.role?.id ?? '',
      required: task.required,
      templateId: task.templateId ?? '',
      ...(task.type === 'sign' && stored
        ? {
            signatureType: stored.signatureType ?? undefined,
            twoFactor: stored.twoFactor,
            fields: stored.fields,
            allowSignerPlacements: stored.allowSignerPlacements,
          }
        : {}),
    };
  });
}

/** A task's type as the table shows it: a sign task with its signature type and code channel. */
function useTypeText(signing: SigningOfTask) {
  const { t } = useTranslation('documents');
  return (task: DocumentTask) => {
    const stored = task.type === 'sign' ? signing.get(task.id) : undefined;
    if (!stored?.signatureType) return t(`taskTypes.${task.type}`);
    const code = stored.twoFactor === 'none' ? '' : ` / ${t(`twoFactors.${stored.twoFactor}`)}`;
    return `${t(`taskTypes.${task.type}`)} (${t(`signatureTypes.${stored.signatureType}`)}${code})`;
  };
}

/** Who a task is for as the table shows it: a one-time user marked as such, with their address on a line of its own. */
function AssigneeCell({ assignee, t }: { assignee: DocumentTask['assignee']; t: TFunction }) {
  if (assignee.kind !== 'one_time_user') return <>{assignee.name ?? '—'}</>;
  const email = assignee.email ?? '';
  const at = email.lastIndexOf('@');
  return (
    <>
      {t('editor.guestOptionName', { name: assignee.name ?? email })}
      {assignee.name && email && (
        <span className="assignee-email">
          {at > 0 ? email.slice(0, at) : email}
          <wbr />
          {at > 0 ? email.slice(at) : ''}
        </span>
      )}
    </>
  );
}

function TaskTable({ tasks, signing }: { tasks: DocumentTask[]; signing: SigningOfTask }) {
  const { t } = useTranslation('documents');
  const typeText = useTypeText(signing);
  if (tasks.length === 0) return <p className="muted">{t('editor.empty')}</p>;
  return (
    <TableScroll label={t('editor.tableLabel')}>
      <table className="data-table tasks-table">
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
              <td className="cell-wrap">{typeText(task)}</td>
              <td className="cell-wrap">
                <AssigneeCell assignee={task.assignee} t={t} />
              </td>
              <td>{task.role?.name ?? '—'}</td>
              <td>{task.required ? '✓' : '—'}</td>
              <td className="cell-status">{t(`taskStatuses.${task.status}`, { defaultValue: task.status })}</td>
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
  const editing = props.editable && !props.locked;
  const planned = useDocumentTasks(props.documentId);
  const types = useSignatureTypes(editing);
  const signing: SigningOfTask = new Map(
    (planned.data?.data ?? []).map((task) => [
      task.id,
      {
        signatureType: task.attributes.signatureType,
        twoFactor: task.attributes.twoFactor,
        // The stored boxes go back as inputs: the same kind, page, rectangle, flag and label, without their ids.
        fields: task.attributes.fields.map(({ kind, page, rect, required, label }) => ({
          kind,
          page,
          rect,
          required,
          ...(label ? { label } : {}),
        })),
        allowSignerPlacements: task.attributes.allowSignerPlacements,
      },
    ]),
  );
  const signatureTypes: SignatureTypeChoice[] = types.data
    ? types.data.map((type) => ({ value: type.id, allowsTwoFactor: type.attributes.allowsTwoFactor }))
    : ALL_SIGNATURE_TYPES;
  const save = async (rows: TaskRow[]) => {
    await replace.mutateAsync({ documentId: props.documentId, rows, lockVersion: props.lockVersion });
    toast.success(t('editor.saved'));
  };
  return (
    <section aria-labelledby="document-tasks-title" className="panel">
      <h2 id="document-tasks-title">{t('editor.title')}</h2>
      {editing && planned.isPending ? (
        <p role="status" className="muted">
          {t('editor.loading')}
        </p>
      ) : editing ? (
        // The rows start from the stored plan, so the editor waits for the sign tasks' types (a failure to fetch
        // them leaves the defaults) and starts again when a save brings new tasks, never on a mere refetch.
        <TaskEditor
          key={`${props.lockVersion}|${[...signing].map(([id, s]) => `${id}:${s.signatureType}:${s.twoFactor}`).join()}`}
          initial={rowsOf(props.tasks, signing)}
          assignees={props.assignees}
          roles={props.roles}
          signatureTypes={signatureTypes}
          context={props.context}
          onSave={save}
          onReload={props.onReload}
        />
      ) : (
        <>
          {props.editable && props.locked && <p className="notice">{t('editor.locked')}</p>}
          <TaskTable tasks={props.tasks} signing={signing} />
        </>
      )}
    </section>
  );
}
