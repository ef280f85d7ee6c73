import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { approveTask, cancelTask, readTask, remandDocument, useTaskStep } from '../api/run-task.ts';
import { remandTargets } from '../task-rules.ts';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';

/** What the actions need of the caller's executable task. */
export interface ExecutableTask {
  id: string;
  order: number;
  type: 'sign' | 'approve' | 'read';
}

function RemandTarget(props: { order: number; value: number; onChange: (order: number) => void }) {
  const { t } = useTranslation('documents');
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('actions.remandTo')}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(Number(event.target.value))}>
        {remandTargets(props.order).map((order) => (
          <option key={order} value={order}>
            {t('actions.remandToOption', { order })}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The caller's task on this document: approve or acknowledge reading (after viewing the preview), open the signing
 * screen of a sign task, remand to an earlier order with a reason, or cancel the whole document with a reason. The
 * cancel stands apart from the positive actions and its dialog names the document and what ends with it.
 */
export function TaskActions({
  task,
  documentId,
  documentName,
}: {
  task: ExecutableTask;
  documentId: string;
  documentName: string;
}) {
  const { t } = useTranslation('documents');
  const approve = useTaskStep(approveTask);
  const read = useTaskStep(readTask);
  const remand = useTaskStep(remandDocument);
  const cancel = useTaskStep(cancelTask);
  const [dialog, setDialog] = useState<'remand' | 'cancel' | null>(null);
  const [toOrder, setToOrder] = useState(1);
  const failure = approve.error ?? read.error;
  const busy = approve.isPending || read.isPending;

  const run = async (step: 'approve' | 'read') => {
    if (step === 'approve') await approve.mutateAsync(task.id);
    else await read.mutateAsync(task.id);
    toast.success(t(step === 'approve' ? 'actions.approved' : 'actions.readDone'));
  };

  return (
    <section aria-labelledby="task-actions-title" className="panel">
      <h2 id="task-actions-title">{t('actions.title')}</h2>
      <p>{t('actions.current', { order: task.order, type: t(`taskTypes.${task.type}`) })}</p>
      {task.type === 'read' && <p className="hint">{t('actions.readHint')}</p>}
      {task.type === 'sign' && <p className="hint">{t('actions.signHint')}</p>}
      <ApiErrorNotice error={failure} />
      <div className="task-actions">
        {task.type === 'approve' && (
          <button
            type="button"
            className="button primary"
            disabled={busy}
            onClick={() => void run('approve').catch(() => undefined)}
          >
            {t('actions.approve')}
          </button>
        )}
        {task.type === 'read' && (
          <button
            type="button"
            className="button primary"
            disabled={busy}
            onClick={() => void run('read').catch(() => undefined)}
          >
            {t('actions.read')}
          </button>
        )}
        {task.type === 'sign' && (
          <Link
            className="button primary"
            to="/organizations/documents/$documentId/tasks/$taskId/sign"
            params={{ documentId, taskId: task.id }}
          >
            {t('actions.sign')}
          </Link>
        )}
        {task.order > 1 && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setToOrder(1);
              setDialog('remand');
            }}
          >
            {t('actions.remand')}
          </button>
        )}
      </div>
      <div className="task-actions task-actions-danger">
        <button type="button" className="button danger" onClick={() => setDialog('cancel')}>
          {t('actions.cancelDocument')}
        </button>
      </div>
      <ReasonDialog
        open={dialog === 'remand'}
        title={t('actions.remandTitle')}
        reasonLabel={t('actions.remandReason')}
        requiredText={t('actions.reasonRequired')}
        cancelLabel={t('dataList:cancel')}
        confirmLabel={t('actions.remand')}
        onClose={() => setDialog(null)}
        onConfirm={async (reason) => {
          await remand.mutateAsync({ taskId: task.id, reason, toOrder });
          toast.success(t('actions.remanded'));
        }}
      >
        <RemandTarget order={task.order} value={toOrder} onChange={setToOrder} />
      </ReasonDialog>
      <ReasonDialog
        open={dialog === 'cancel'}
        title={t('actions.cancelDocumentTitle', { name: documentName })}
        reasonLabel={t('actions.cancelReason')}
        requiredText={t('actions.reasonRequired')}
        cancelLabel={t('actions.keepDocument')}
        confirmLabel={t('actions.cancelDocument')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async (reason) => {
          await cancel.mutateAsync({ taskId: task.id, reason });
          toast.success(t('actions.cancelled'));
        }}
      >
        <p>{t('actions.cancelDocumentBody', { name: documentName })}</p>
      </ReasonDialog>
    </section>
  );
}
