import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { discardDraftFlow, getDraftFlow } from '../api/draft-flow.ts';
import { useAction } from '../use-action.ts';
import type { Draft } from '../wizard-draft.ts';

/**
 * The step's actions: back, next (which saves the step), leave (the draft is already saved), and discard with a
 * confirmation. The failure of next is shown above the buttons with the API's message.
 */
export function WizardFooter(props: {
  draft: Draft | null;
  nextLabel: string;
  pending: boolean;
  error: unknown;
  action: string;
  onNext: () => void;
  onBack?: () => void;
  nextDisabled?: boolean;
}) {
  const { t } = useTranslation('sendWizard');
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const discard = useAction();
  const { draft } = props;
  return (
    <div className="wizard-footer">
      <ApiErrorNotice error={props.error} action={props.action} />
      <ApiErrorNotice error={discard.error} action={t('actions.discard')} />
      <div className="wizard-actions">
        {props.onBack && (
          <button type="button" className="button" onClick={props.onBack}>
            {t('back')}
          </button>
        )}
        <button
          type="button"
          className="button primary wizard-next"
          disabled={props.pending || props.nextDisabled}
          onClick={props.onNext}
        >
          {props.pending ? t('saving') : props.nextLabel}
        </button>
        {draft && (
          <>
            <Link to="/" className="button wizard-leave">
              {t('saveAndLeave')}
            </Link>
            <button type="button" className="button danger wizard-discard" onClick={() => setConfirming(true)}>
              {t('discard')}
            </button>
          </>
        )}
      </div>
      {draft && (
        <ConfirmDialog
          open={confirming}
          title={t('discardConfirm.title')}
          confirmLabel={t('discardConfirm.confirm')}
          danger
          pending={discard.pending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            void discard.run(async () => {
              setConfirming(false);
              const flow = await getDraftFlow(draft.flowId);
              await discardDraftFlow({ businessFlowId: draft.flowId, lockVersion: flow.attributes.lockVersion });
              await navigate({ to: '/' });
            })
          }
        >
          <p>{t('discardConfirm.body', { name: draft.name })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
