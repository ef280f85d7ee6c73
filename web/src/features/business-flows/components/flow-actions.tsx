import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useCancelBusinessFlow, useCompleteBusinessFlow, useMarkIncomplete } from '../api/change-business-flow.ts';
import { ReasonDialog } from './reason-dialog.tsx';

type Dialog = 'complete' | 'incomplete' | 'cancel' | null;

/** Complete, mark incomplete and cancel (with its required reason), each confirmed in a dialog. */
export function FlowActions(props: {
  flow: { id: string; attributes: { name: string; status: string; lockVersion: number } };
  onReload: () => void;
}) {
  const { t } = useTranslation('businessFlows');
  const { flow } = props;
  const complete = useCompleteBusinessFlow();
  const incomplete = useMarkIncomplete();
  const cancel = useCancelBusinessFlow();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const ref = { businessFlowId: flow.id, lockVersion: flow.attributes.lockVersion };
  const name = flow.attributes.name;
  const status = flow.attributes.status;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setFailure(null);
    try {
      await action();
      toast.success(t(done));
    } catch (error) {
      setFailure(error);
    } finally {
      setDialog(null);
    }
  };

  return (
    <section aria-labelledby="flow-actions-title" className="panel">
      <h2 id="flow-actions-title">{t('detail.actions')}</h2>
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      <div className="action-row">
        {status !== 'complete' && (
          <button type="button" className="button primary" onClick={() => setDialog('complete')}>
            {t('detail.complete')}
          </button>
        )}
        {status !== 'incomplete' && (
          <button type="button" className="button" onClick={() => setDialog('incomplete')}>
            {t('detail.incomplete')}
          </button>
        )}
        <button type="button" className="button danger" onClick={() => setDialog('cancel')}>
          {t('detail.cancel')}
        </button>
      </div>
      <ConfirmDialog
        open={dialog === 'complete'}
        title={t('detail.completeTitle', { name })}
        confirmLabel={t('detail.complete')}
        pending={complete.isPending}
        onConfirm={() => void run(() => complete.mutateAsync(ref), 'detail.completed')}
        onCancel={() => setDialog(null)}
      >
        <p>{t('detail.completeBody')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'incomplete'}
        title={t('detail.incompleteTitle', { name })}
        confirmLabel={t('detail.incomplete')}
        pending={incomplete.isPending}
        onConfirm={() => void run(() => incomplete.mutateAsync(ref), 'detail.markedIncomplete')}
        onCancel={() => setDialog(null)}
      />
      <ReasonDialog
        open={dialog === 'cancel'}
        idPrefix="flow-cancel"
        title={t('detail.cancelTitle', { name })}
        body={t('detail.cancelBody')}
        label={t('fields.cancelComment')}
        requiredText={t('detail.cancelRequired')}
        confirmLabel={t('detail.cancel')}
        pending={cancel.isPending}
        onConfirm={(comment) => void run(() => cancel.mutateAsync({ ...ref, comment }), 'detail.cancelled')}
        onCancel={() => setDialog(null)}
      />
    </section>
  );
}
