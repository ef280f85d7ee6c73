import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { RowAction, TableScroll } from '../../../components/data-list.tsx';
import type { WorkspaceDetail } from '../api/get-workspace.ts';
import { useRemoveParticipant, useUpdateParticipant } from '../api/participants.ts';

export type Participant = NonNullable<WorkspaceDetail['attributes']['participants']>[number];

/** A participant's display name: the group's name, or the partner's name with its corporate number. */
export function participantName({ attributes: a }: Participant): string {
  if (a.kind === 'group') return a.groupName ?? '';
  const number = a.corporateNumber ? ` (${a.corporateNumber})` : '';
  return `${a.organizationName ?? ''}${number}`;
}

/**
 * The participants table: kind, the public / editable flags (switches for who may manage them) and removal.
 * Every change sends the workspace's lockVersion; a stale one shows the reload notice.
 */
export function ParticipantsPanel(props: { workspace: WorkspaceDetail; canManage: boolean; onReload: () => void }) {
  const { t } = useTranslation('workspaces');
  const { workspace, canManage } = props;
  const update = useUpdateParticipant();
  const remove = useRemoveParticipant();
  const [failure, setFailure] = useState<unknown>(null);
  const [removing, setRemoving] = useState<Participant | null>(null);
  const lockVersion = workspace.attributes.lockVersion;
  const participants = workspace.attributes.participants ?? [];

  const toggle = async (participant: Participant, flag: 'isPublic' | 'isEditable', value: boolean) => {
    setFailure(null);
    try {
      await update.mutateAsync({
        workspaceId: workspace.id,
        lockVersion,
        participantId: participant.id,
        flags: { [flag]: value },
      });
      toast.success(t('participants.updated', { name: participantName(participant) }));
    } catch (error) {
      setFailure(error);
    }
  };
  const confirmRemove = async () => {
    if (!removing) return;
    setFailure(null);
    try {
      await remove.mutateAsync({ workspaceId: workspace.id, lockVersion, participantId: removing.id });
      toast.success(t('participants.removed', { name: participantName(removing) }));
    } catch (error) {
      setFailure(error);
    } finally {
      setRemoving(null);
    }
  };

  const flagCell = (participant: Participant, flag: 'isPublic' | 'isEditable') => {
    const name = participantName(participant);
    const label = t(flag === 'isPublic' ? 'participants.publicLabel' : 'participants.editableLabel', { name });
    return (
      <td>
        <input
          type="checkbox"
          aria-label={label}
          checked={participant.attributes[flag]}
          disabled={!canManage || update.isPending}
          onChange={(event) => void toggle(participant, flag, event.target.checked)}
        />
      </td>
    );
  };

  return (
    <section aria-labelledby="participants-title" className="panel">
      <h2 id="participants-title">{t('participants.title')}</h2>
      <p className="hint">{t('participants.hintPublic')}</p>
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      {participants.length === 0 ? (
        <p className="muted">{t('participants.empty')}</p>
      ) : (
        <TableScroll label={t('participants.tableLabel')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('participants.columns.name')}</th>
                <th scope="col">{t('participants.columns.kind')}</th>
                <th scope="col">{t('participants.columns.isPublic')}</th>
                <th scope="col">{t('participants.columns.isEditable')}</th>
                {canManage && <th scope="col">{t('participants.columns.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {participants.map((participant) => (
                <tr key={participant.id}>
                  <td>{participantName(participant)}</td>
                  <td>{t(`participants.kinds.${participant.attributes.kind}`)}</td>
                  {flagCell(participant, 'isPublic')}
                  {flagCell(participant, 'isEditable')}
                  {canManage && (
                    <td>
                      <RowAction
                        danger
                        label={t('participants.removeLabel', { name: participantName(participant) })}
                        onClick={() => setRemoving(participant)}
                      >
                        {t('participants.remove')}
                      </RowAction>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('participants.removeTitle', { name: removing ? participantName(removing) : '' })}
        confirmLabel={t('participants.remove')}
        danger
        pending={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('participants.removeBody')}</p>
      </ConfirmDialog>
    </section>
  );
}
