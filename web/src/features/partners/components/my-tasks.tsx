import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { type OuterTask, useRunTask } from '../api/outer-flow.ts';

export interface TaskRow {
  task: OuterTask;
  documentName: string;
}

const STATUS_CLASS: Record<string, string> = {
  active: 'badge badge-info',
  completed: 'badge badge-ok',
  waiting: 'badge badge-muted',
  skipped: 'badge badge-muted',
  cancelled: 'badge badge-muted',
};

/** The partner organization's own tasks on the flow, executable ones first, with their action. */
export function MyTasks({ rows, loading, onReload }: { rows: TaskRow[]; loading: boolean; onReload: () => void }) {
  const { t } = useTranslation('partners');
  const run = useRunTask();
  const [failure, setFailure] = useState<unknown>(null);
  const sorted = [...rows].sort(
    (x, y) =>
      Number(y.task.attributes.executableByMe) - Number(x.task.attributes.executableByMe) ||
      x.task.attributes.order - y.task.attributes.order,
  );
  const execute = async ({ task, documentName }: TaskRow) => {
    setFailure(null);
    try {
      await run.mutateAsync({ task });
      const key = task.attributes.type === 'read' ? 'outer.readDone' : 'outer.approved';
      toast.success(t(key, { document: documentName }));
    } catch (error) {
      setFailure(error);
    }
  };
  const action = (row: TaskRow) => {
    const { task } = row;
    const a = task.attributes;
    const label = t('outer.runLabel', { document: row.documentName, type: t(`taskType.${a.type}`) });
    if (!a.executableByMe) return null;
    if (a.type === 'sign') {
      return (
        <Link
          to="/organizations/documents/$documentId/tasks/$taskId/sign"
          params={{ documentId: a.documentId, taskId: task.id }}
          className="button primary"
          aria-label={label}
        >
          {t('outer.sign')}
        </Link>
      );
    }
    return (
      <button
        type="button"
        className="button primary"
        aria-label={label}
        disabled={run.isPending}
        onClick={() => void execute(row)}
      >
        {a.type === 'read' ? t('outer.read') : t('outer.approve')}
      </button>
    );
  };
  return (
    <section aria-labelledby="outer-tasks-title" className="panel">
      <h2 id="outer-tasks-title">{t('outer.myTasks')}</h2>
      <ApiErrorNotice error={failure} onReload={onReload} />
      {loading ? (
        <p role="status" className="muted">
          {t('outer.tasksLoading')}
        </p>
      ) : sorted.length === 0 ? (
        <p className="muted">{t('outer.myTasksEmpty')}</p>
      ) : (
        <ul className="outer-tasks">
          {sorted.map((row) => {
            const a = row.task.attributes;
            return (
              <li key={row.task.id} className={a.executableByMe ? 'outer-task runnable' : 'outer-task'}>
                <div className="outer-task-main">
                  <Link to="/organizations/documents/$documentId" params={{ documentId: a.documentId }}>
                    {row.documentName}
                  </Link>
                  <span className="outer-task-meta">
                    {t(`taskType.${a.type}`)}・{t('outer.order', { order: a.order })}{' '}
                    <span className={STATUS_CLASS[a.status] ?? 'badge'}>{t(`taskStatus.${a.status}`)}</span>
                  </span>
                </div>
                <div className="outer-task-action">{action(row)}</div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
