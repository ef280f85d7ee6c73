import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import {
  approveOneTimeTask,
  readOneTimeTask,
  remandOneTimeDocument,
  saveOneTimeCompletionCertificate,
  saveOneTimeDocument,
  useGuestDocumentFile,
  useGuestStep,
} from '../api/guest-flow.ts';
import { type GuestDocument, type GuestTask, runnableTask } from '../flow-model.ts';
import { GuestSignPanel } from './guest-sign-panel.tsx';
import { PdfPages } from './pdf-pages.tsx';
import { RemandDialog } from './remand-dialog.tsx';

/** The guest's tasks on the document and the others' (who and state only). */
function TaskLines({ document: doc }: { document: GuestDocument }) {
  const { t } = useTranslation('oneTime');
  const line = (task: { order: number; type: string; status: string }) => ({
    order: task.order,
    type: t(`flow.taskTypes.${task.type}`),
    status: t(`flow.taskStatuses.${task.status}`, { defaultValue: task.status }),
  });
  return (
    <div className="onetime-task-lines">
      <h3>{t('flow.yourTasks')}</h3>
      <ul className="plain-list">
        {doc.tasks.map((task) => (
          <li key={task.id}>{t('flow.taskLine', line(task))}</li>
        ))}
      </ul>
      {doc.otherTasks.length > 0 && (
        <>
          <h3>{t('flow.otherTasks')}</h3>
          <ul className="plain-list muted">
            {doc.otherTasks.map((task, index) => (
              <li key={index}>{t('flow.otherTaskLine', { ...line(task), who: task.who })}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The PDF (the signed one once complete) and, once complete, the completion certificate. */
function DownloadButton({ document: doc }: { document: GuestDocument }) {
  const { t } = useTranslation('oneTime');
  const [pending, setPending] = useState<'file' | 'certificate' | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const download = async (which: 'file' | 'certificate') => {
    setPending(which);
    setFailure(null);
    try {
      if (which === 'file') await saveOneTimeDocument(doc.id);
      else await saveOneTimeCompletionCertificate(doc.id);
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(null);
    }
  };
  return (
    <>
      <ApiErrorNotice error={failure} />
      <button
        type="button"
        className={doc.downloadable ? 'button primary' : 'button'}
        disabled={pending !== null}
        onClick={() => void download('file')}
      >
        {pending === 'file' ? t('flow.downloading') : doc.downloadable ? t('flow.downloadSigned') : t('flow.download')}
      </button>
      {doc.downloadable && (
        <button
          type="button"
          className="button"
          disabled={pending !== null}
          onClick={() => void download('certificate')}
        >
          {pending === 'certificate' ? t('flow.downloading') : t('flow.downloadCertificate')}
        </button>
      )}
    </>
  );
}

/** Approve or read after viewing the pages; remand with a reason from any task past the first order. */
function StepActions({ task }: { task: GuestTask }) {
  const { t } = useTranslation('oneTime');
  const approve = useGuestStep(approveOneTimeTask);
  const read = useGuestStep(readOneTimeTask);
  const busy = approve.isPending || read.isPending;
  const run = async () => {
    try {
      if (task.type === 'approve') await approve.mutateAsync(task);
      else await read.mutateAsync(task);
      toast.success(t(task.type === 'approve' ? 'actions.approved' : 'actions.readDone'));
    } catch {
      // Shown by the notice.
    }
  };
  return (
    <>
      <p className="hint">{t(task.type === 'approve' ? 'actions.approveHint' : 'actions.readHint')}</p>
      <ApiErrorNotice error={approve.error ?? read.error} />
      <button type="button" className="button primary" disabled={busy} onClick={() => void run()}>
        {t(task.type === 'approve' ? 'actions.approve' : 'actions.read')}
      </button>
    </>
  );
}

/**
 * One document opened: its tasks, the pages (with the placement tools when the guest signs), what the guest can do
 * now, and the PDF to download (the signed one once the document is complete).
 */
export function DocumentWork({ document: doc }: { document: GuestDocument }) {
  const { t } = useTranslation('oneTime');
  const file = useGuestDocumentFile(doc.id, doc.version);
  const remand = useGuestStep(remandOneTimeDocument);
  const [remanding, setRemanding] = useState(false);
  const task = runnableTask(doc);
  const reason = file.error ?? file.failureReason;
  const scanning = reason instanceof ApiError && reason.code === 'DOCUMENT_BEING_SCANNED';

  return (
    <div className="onetime-document">
      <TaskLines document={doc} />
      {doc.downloadable && (
        <p role="status" className="success">
          {t('flow.completeNotice')}
        </p>
      )}
      {!task && !doc.downloadable && (
        <p role="status" className="notice">
          {doc.tasks.some((own) => own.status === 'waiting') ? t('flow.waiting') : t('flow.nothingToDo')}
        </p>
      )}
      {scanning && (
        <p role="status" className="notice">
          {t('signing:viewer.scanning')}
        </p>
      )}
      {file.error && !scanning && <ApiErrorNotice error={file.error} />}
      {file.isPending && !scanning && (
        <p role="status" className="muted">
          {t('signing:viewer.loading')}
        </p>
      )}
      {file.data &&
        (task?.type === 'sign' ? (
          <GuestSignPanel
            file={file.data.blob}
            title={doc.name}
            task={task}
            onSigned={() => toast.success(t('actions.signed'))}
          />
        ) : (
          <section aria-labelledby={`preview-${doc.id}`} className="panel">
            <h3 id={`preview-${doc.id}`}>{t('flow.preview')}</h3>
            <PdfPages file={file.data.blob} title={doc.name} />
          </section>
        ))}
      {task && (
        <div className="task-actions onetime-actions">
          {task.type !== 'sign' && <StepActions task={task} />}
          {task.order > 1 && (
            <button type="button" className="button" onClick={() => setRemanding(true)}>
              {t('actions.remand')}
            </button>
          )}
        </div>
      )}
      <div className="task-actions">
        <DownloadButton document={doc} />
      </div>
      {task && (
        <RemandDialog
          open={remanding}
          order={task.order}
          onClose={() => setRemanding(false)}
          onConfirm={async (text, toOrder) => {
            await remand.mutateAsync({ task, reason: text, toOrder });
            toast.success(t('actions.remanded'));
          }}
        />
      )}
    </div>
  );
}
