import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useChangeUserState } from '../api/change-user-state.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import type { User } from '../api/get-user.ts';
import { useResendInvitation } from '../api/resend-invitation.ts';
import { type Action, availableActions, CONFIRMED } from '../actions.ts';

/** An administrator's actions on a user: each with a toast on success and its refusal's message otherwise. */
export function UserActions(props: { user: User; isSelf: boolean; onReload: () => void }) {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const { user } = props;
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const change = useChangeUserState();
  const remove = useDeleteUser();
  const resend = useResendInvitation();
  const pending = change.isPending || remove.isPending || resend.isPending;

  const run = async (action: Action) => {
    setFailure(null);
    try {
      if (action === 'delete') await remove.mutateAsync(user.id);
      else if (action === 'resendInvitation') await resend.mutateAsync(user.id);
      else await change.mutateAsync({ userId: user.id, action, lockVersion: user.attributes.lockVersion });
      toast.success(t(`actions.done.${action}`));
      if (action === 'delete') await navigate({ to: '/organizations/settings/users' });
    } catch (error) {
      setFailure(error);
    } finally {
      setConfirming(null);
    }
  };

  const actions = availableActions(user, props.isSelf);
  const name = user.attributes.name;
  return (
    <section aria-labelledby="user-actions-title" className="panel">
      <h2 id="user-actions-title">{t('actions.heading')}</h2>
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      <div className="action-row">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'delete' ? 'button danger' : 'button'}
            disabled={pending}
            onClick={() => (CONFIRMED.includes(action) ? setConfirming(action) : void run(action))}
          >
            {t(`actions.${action}`)}
          </button>
        ))}
      </div>
      {props.isSelf ? (
        <p className="hint">{t('actions.self')}</p>
      ) : (
        user.attributes.isOwner && <p className="hint">{t('actions.owner')}</p>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(`actions.confirm.${confirming}Title`, { name }) : ''}
        confirmLabel={confirming ? t(`actions.${confirming}`) : ''}
        danger={confirming === 'delete' || confirming === 'deactivate' || confirming === 'lock'}
        pending={pending}
        onConfirm={() => confirming && void run(confirming)}
        onCancel={() => setConfirming(null)}
      >
        {confirming && <p>{t(`actions.confirm.${confirming}Body`)}</p>}
      </ConfirmDialog>
    </section>
  );
}
