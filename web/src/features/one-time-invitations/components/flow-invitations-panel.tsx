import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ListState, RowAction, TableScroll } from '../../../components/data-list.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCancelInvitation, useReinvite, useResendInvitation } from '../api/change-invitation.ts';
import { type OneTimeInvitation, useOneTimeInvitations } from '../api/list-one-time-invitations.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { type Action, invitationActions } from '../invitation-actions.ts';
import { EmailText, guestLabel } from '../who.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { QrScreen } from './qr-screen.tsx';
import '../one-time-invitations.css';

registerCatalogue('oneTimeInvitations', { ja, en });

/**
 * A business flow's one-time user invitations: the invite dialog, the list with each invitation's state, last mail
 * and link expiry, and its actions (re-send, cancel, re-invite, each confirmed; the QR screen for QR invitations).
 */
export function FlowInvitationsPanel(props: { businessFlowId: string; canInvite: boolean }) {
  const { t, i18n } = useTranslation('oneTimeInvitations');
  const list = useOneTimeInvitations(props.businessFlowId);
  const resend = useResendInvitation();
  const cancel = useCancelInvitation();
  const reinvite = useReinvite();
  const [inviting, setInviting] = useState(false);
  const [confirming, setConfirming] = useState<{ action: Action; invitation: OneTimeInvitation } | null>(null);
  const [qrFor, setQrFor] = useState<OneTimeInvitation | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const format = japanDateTimeFormat(i18n.language);
  const when = (value: string | null | undefined) => (value ? format.format(new Date(value)) : t('none'));
  const invitations = list.data ?? [];
  const mutations = { resend, cancel, reinvite };

  const run = async () => {
    if (!confirming) return;
    const { action, invitation } = confirming;
    setFailure(null);
    try {
      await mutations[action].mutateAsync({
        invitationId: invitation.id,
        lockVersion: invitation.attributes.lockVersion,
      });
      const done = { resend: 'flow.resent', cancel: 'flow.cancelled', reinvite: 'flow.reinvited' }[action];
      toast.success(t(done, { who: guestLabel(invitation.attributes, t) }));
    } catch (error) {
      setFailure(error);
    } finally {
      setConfirming(null);
    }
  };

  const rowActions = (invitation: OneTimeInvitation) => {
    const who = guestLabel(invitation.attributes, t);
    return invitationActions(invitation.attributes).map((action) =>
      action === 'showQr' ? (
        <RowAction key={action} label={t('flow.showQrLabel', { who })} onClick={() => setQrFor(invitation)}>
          {t('flow.showQr')}
        </RowAction>
      ) : (
        <RowAction
          key={action}
          danger={action === 'cancel'}
          label={t(`flow.${action}Label`, { who })}
          onClick={() => setConfirming({ action, invitation })}
        >
          {t(`flow.${action}`)}
        </RowAction>
      ),
    );
  };

  const confirmWho = confirming ? guestLabel(confirming.invitation.attributes, t) : '';
  return (
    <section aria-labelledby="one-time-invitations-title" className="panel one-time-invitations">
      <div className="panel-header">
        <h2 id="one-time-invitations-title">{t('flow.title')}</h2>
        {props.canInvite && (
          <button type="button" className="button primary" onClick={() => setInviting(true)}>
            {t('flow.invite')}
          </button>
        )}
      </div>
      <p className="hint">{t('flow.hint')}</p>
      <ApiErrorNotice error={failure} onReload={() => void list.refetch()} />
      <ListState
        pending={list.isPending}
        error={list.error}
        empty={list.isSuccess && invitations.length === 0}
        emptyText={t('flow.empty')}
        searching={false}
        onRetry={() => void list.refetch()}
      />
      {invitations.length > 0 && (
        <TableScroll label={t('flow.tableLabel')}>
          <table className="data-table invitations-table stacked-table">
            <thead>
              <tr>
                <th scope="col">{t('flow.columns.name')}</th>
                <th scope="col">{t('flow.columns.email')}</th>
                <th scope="col">{t('flow.columns.channel')}</th>
                <th scope="col">{t('flow.columns.status')}</th>
                <th scope="col">{t('flow.columns.lastSent')}</th>
                <th scope="col">{t('flow.columns.linkExpires')}</th>
                {props.canInvite && <th scope="col">{t('flow.columns.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => {
                const a = invitation.attributes;
                const linkExpired = a.linkExpiresAt !== null && Date.parse(a.linkExpiresAt) <= Date.now();
                return (
                  <tr key={invitation.id}>
                    <td className="cell-wrap" data-label={t('flow.columns.name')}>
                      {a.name || t('flow.notClaimed')}
                    </td>
                    <td className="cell-email" data-label={t('flow.columns.email')}>
                      {a.email ? <EmailText email={a.email} /> : t('flow.notClaimed')}
                    </td>
                    <td data-label={t('flow.columns.channel')}>{t(`channels.${a.channel}`)}</td>
                    <td data-label={t('flow.columns.status')}>
                      <span className={`badge invitation-${a.status}`}>{t(`statuses.${a.status}`)}</span>
                    </td>
                    <td className="cell-date" data-label={t('flow.columns.lastSent')}>
                      {when(a.lastSentAt)}
                    </td>
                    <td className="cell-date" data-label={t('flow.columns.linkExpires')}>
                      <span>
                        {/* A cancelled invitation's link is dead whatever its date said. */}
                        {a.status === 'cancelled' ? t('none') : when(a.linkExpiresAt)}
                        {linkExpired && a.status !== 'cancelled' && (
                          <span className="badge badge-warn link-expired">{t('flow.linkExpired')}</span>
                        )}
                      </span>
                    </td>
                    {props.canInvite && (
                      <td data-label={t('flow.columns.actions')}>
                        <div className="row-actions">{rowActions(invitation)}</div>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <InviteDialog
        open={inviting}
        businessFlowId={props.businessFlowId}
        onClose={() => setInviting(false)}
        onInvited={(invitation, channel) => {
          setInviting(false);
          if (channel === 'qr') setQrFor(invitation);
        }}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(`flow.${confirming.action}Title`, { who: confirmWho }) : ''}
        confirmLabel={confirming ? t(`flow.${confirming.action}`) : ''}
        danger={confirming?.action === 'cancel'}
        pending={resend.isPending || cancel.isPending || reinvite.isPending}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(null)}
      >
        {confirming && <p>{t(`flow.${confirming.action}Body`)}</p>}
      </ConfirmDialog>
      {qrFor && (
        <QrScreen
          invitationId={qrFor.id}
          who={qrFor.attributes.name || qrFor.attributes.email}
          onClose={() => {
            setQrFor(null);
            void list.refetch();
          }}
        />
      )}
    </section>
  );
}
