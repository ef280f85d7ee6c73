import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ListState, TableScroll } from '../../../components/data-list.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useOneTimeUsers } from '../api/list-one-time-users.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { EmailText, guestLabel } from '../who.tsx';
import '../one-time-invitations.css';

registerCatalogue('oneTimeInvitations', { ja, en });

/**
 * The workspace's one-time users: each guest's name, address and state, and their invitations (the business flow,
 * how they were invited, the invitation's state, its last mail and link expiry). Invitations are made on a flow.
 */
export function WorkspaceOneTimeUsers(props: { workspaceId: string }) {
  const { t, i18n } = useTranslation('oneTimeInvitations');
  const users = useOneTimeUsers(props.workspaceId);
  const format = japanDateTimeFormat(i18n.language);
  const rows = users.data ?? [];
  return (
    <section aria-labelledby="workspace-one-time-users-title" className="panel one-time-users">
      <h2 id="workspace-one-time-users-title">{t('workspace.title')}</h2>
      <p className="hint">{t('workspace.hint')}</p>
      <ListState
        pending={users.isPending}
        error={users.error}
        empty={users.isSuccess && rows.length === 0}
        emptyText={t('workspace.empty')}
        searching={false}
        onRetry={() => void users.refetch()}
      />
      {rows.length > 0 && (
        <TableScroll label={t('workspace.tableLabel')}>
          <table className="data-table one-time-users-table stacked-table">
            <thead>
              <tr>
                <th scope="col">{t('workspace.columns.name')}</th>
                <th scope="col">{t('workspace.columns.email')}</th>
                <th scope="col">{t('workspace.columns.status')}</th>
                <th scope="col">{t('workspace.columns.invitations')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((user) => {
                const a = user.attributes;
                return (
                  <tr key={user.id}>
                    <td className="cell-wrap" data-label={t('workspace.columns.name')}>
                      {guestLabel(a, t)}
                    </td>
                    <td className="cell-email" data-label={t('workspace.columns.email')}>
                      {a.email ? <EmailText email={a.email} /> : t('flow.notClaimed')}
                    </td>
                    <td data-label={t('workspace.columns.status')}>
                      <span className={`badge invitation-${a.status}`}>{t(`statuses.${a.status}`)}</span>
                    </td>
                    <td className="cell-wrap" data-label={t('workspace.columns.invitations')}>
                      <ul className="guest-invitations">
                        {a.invitations.map(({ id, attributes: invitation }) => (
                          <li key={id}>
                            <Link
                              to="/business-flows/$businessFlowId"
                              params={{ businessFlowId: invitation.businessFlowId }}
                            >
                              {invitation.businessFlowName}
                            </Link>
                            <span className="guest-invitation-state">
                              {t('workspace.invitation', {
                                channel: t(`channels.${invitation.channel}`),
                                status: t(`statuses.${invitation.status}`),
                              })}
                            </span>
                            {invitation.lastSentAt && (
                              <span className="muted">
                                {t('workspace.lastSent', { time: format.format(new Date(invitation.lastSentAt)) })}
                              </span>
                            )}
                            {invitation.linkExpiresAt && invitation.status !== 'cancelled' && (
                              <span className="muted">
                                {t('workspace.linkExpires', {
                                  time: format.format(new Date(invitation.linkExpiresAt)),
                                })}
                              </span>
                            )}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
