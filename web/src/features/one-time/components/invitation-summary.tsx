import { useTranslation } from 'react-i18next';

/** Who invites the guest to which flow, and (when known) the guest's name and masked address. */
export function InvitationSummary(props: {
  invitation: { organizationName: string; businessFlowName: string; name?: string | null; maskedEmail?: string | null };
}) {
  const { t } = useTranslation('oneTime');
  const { invitation } = props;
  return (
    <div className="onetime-invitation">
      <p className="onetime-invited-by">
        {t('auth.invitedBy', { organization: invitation.organizationName, flow: invitation.businessFlowName })}
      </p>
      {(invitation.name || invitation.maskedEmail) && (
        <dl className="facts">
          {invitation.name && (
            <div>
              <dt>{t('auth.guestName')}</dt>
              <dd>{invitation.name}</dd>
            </div>
          )}
          {invitation.maskedEmail && (
            <div>
              <dt>{t('auth.email')}</dt>
              <dd>{invitation.maskedEmail}</dd>
            </div>
          )}
        </dl>
      )}
    </div>
  );
}
