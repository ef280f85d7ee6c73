import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useDiscardBusinessFlowDraft } from '../api/discard-business-flow-draft.ts';

/**
 * A draft's own actions: go on in the send wizard where it was left, or discard it (confirmed: its documents, tasks,
 * fields and one-time invitations go with it). A draft has no task or status actions: nothing is live until it is sent.
 */
export function DraftActions(props: {
  flow: { id: string; attributes: { name: string; lockVersion: number } };
  canEdit: boolean;
  onReload: () => void;
}) {
  const { t } = useTranslation('businessFlows');
  const navigate = useNavigate();
  const discard = useDiscardBusinessFlowDraft();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const { flow } = props;

  const run = async () => {
    setFailure(null);
    try {
      await discard.mutateAsync({ businessFlowId: flow.id, lockVersion: flow.attributes.lockVersion });
      toast.success(t('draft.discarded', { name: flow.attributes.name }));
      await navigate({ to: '/organizations/business-flows' });
    } catch (error) {
      setFailure(error);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="flow-draft-title" className="panel">
      <h2 id="flow-draft-title">{t('draft.title')}</h2>
      <p className="notice" role="status">
        {t('draft.notice')}
      </p>
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      {props.canEdit && (
        <div className="action-row">
          <Link to="/organizations/business-flows/new" search={{ draft: flow.id }} className="button primary">
            {t('draft.continue')}
          </Link>
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            {t('draft.discard')}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('draft.discardTitle', { name: flow.attributes.name })}
        confirmLabel={t('draft.discard')}
        danger
        pending={discard.isPending}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('draft.discardBody')}</p>
      </ConfirmDialog>
    </section>
  );
}
