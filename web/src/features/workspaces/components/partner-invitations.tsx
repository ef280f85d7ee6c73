import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { RowAction, TableScroll } from '../../../components/data-list.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import {
  type PartnerInvitation,
  useChangePartnerInvitation,
  useInvitePartner,
  usePartnerInvitations,
} from '../api/partner-invitations.ts';

/** ajv-formats' "email" (full mode): what `format: email` accepts on the server. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

const STATUS_CLASS: Record<string, string> = {
  pending: 'badge badge-info',
  expired: 'badge badge-warn',
  accepted: 'badge badge-ok',
  cancelled: 'badge badge-muted',
};

/**
 * Partner organizations invited by e-mail (for organizations without a corporate number, or people who do not
 * know theirs): the invitation form with the participant's flags, and the invitations with their state, re-send
 * and cancel. Only for who may manage the workspace.
 */
export function PartnerInvitations({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation('workspaces');
  return (
    <section aria-labelledby="partner-invitations-title" className="panel">
      <h2 id="partner-invitations-title">{t('invitations.title')}</h2>
      <p className="hint">{t('invitations.intro')}</p>
      <InviteForm workspaceId={workspaceId} />
      <InvitationList workspaceId={workspaceId} />
    </section>
  );
}

function InviteForm({ workspaceId }: { workspaceId: string }) {
  const { t, i18n } = useTranslation('workspaces');
  const invite = useInvitePartner();
  const [email, setEmail] = useState('');
  const [locale, setLocale] = useState<'ja' | 'en'>(i18n.language === 'en' ? 'en' : 'ja');
  // A partner sees only the flows it has tasks in unless the user makes it public.
  const [flags, setFlags] = useState({ isPublic: false, isEditable: false });
  const [invalid, setInvalid] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address) || address.length > 254) {
      setInvalid(true);
      return;
    }
    setFailure(null);
    try {
      await invite.mutateAsync({ workspaceId, invitation: { email: address, locale, ...flags } });
      toast.success(t('invitations.sent', { email: address }));
      setEmail('');
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-label={t('invitations.formLabel')}>
      <ApiErrorNotice error={failure} />
      <FormField
        id="invite-partner-email"
        type="email"
        label={t('invitations.email')}
        hint={t('invitations.emailHint')}
        value={email}
        autoComplete="off"
        maxLength={254}
        required
        errors={invalid ? [t('invitations.emailInvalid')] : []}
        onChange={(event) => {
          setEmail(event.target.value);
          setInvalid(false);
        }}
      />
      <SelectField
        id="invite-partner-locale"
        label={t('invitations.locale')}
        value={locale}
        onChange={(event) => setLocale(event.target.value === 'en' ? 'en' : 'ja')}
        options={[
          { value: 'ja', label: t('invitations.locales.ja') },
          { value: 'en', label: t('invitations.locales.en') },
        ]}
      />
      <CheckboxField
        id="invite-partner-public"
        label={t('addPartner.isPublic')}
        checked={flags.isPublic}
        onChange={(event) => setFlags((f) => ({ ...f, isPublic: event.target.checked }))}
      />
      <CheckboxField
        id="invite-partner-editable"
        label={t('addPartner.isEditable')}
        checked={flags.isEditable}
        onChange={(event) => setFlags((f) => ({ ...f, isEditable: event.target.checked }))}
      />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={invite.isPending}>
          {invite.isPending ? t('invitations.sending') : t('invitations.send')}
        </button>
      </div>
    </form>
  );
}

function InvitationList({ workspaceId }: { workspaceId: string }) {
  const { t, i18n } = useTranslation('workspaces');
  const invitations = usePartnerInvitations(workspaceId);
  const change = useChangePartnerInvitation();
  const [failure, setFailure] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState<PartnerInvitation | null>(null);
  const format = japanDateTimeFormat(i18n.language);
  const rows = invitations.data ?? [];

  const run = async (invitation: PartnerInvitation, action: 'cancel' | 'resend') => {
    setFailure(null);
    try {
      await change.mutateAsync({ workspaceId, invitation, action });
      const key = action === 'cancel' ? 'invitations.cancelled' : 'invitations.resent';
      toast.success(t(key, { email: invitation.attributes.email }));
    } catch (error) {
      setFailure(error);
    } finally {
      setCancelling(null);
    }
  };

  const stateText = (invitation: PartnerInvitation) => {
    const a = invitation.attributes;
    if (a.status === 'accepted' && a.acceptedOrganization)
      return t('invitations.joinedAs', { name: a.acceptedOrganization.name });
    if (a.status === 'pending' || a.status === 'expired')
      return t('invitations.expiresAt', { date: format.format(new Date(a.expiresAt)) });
    return '';
  };

  return (
    <>
      <h3>{t('invitations.listTitle')}</h3>
      <ApiErrorNotice error={failure ?? invitations.error} onReload={() => void invitations.refetch()} />
      {invitations.isSuccess && rows.length === 0 ? (
        <p className="muted">{t('invitations.empty')}</p>
      ) : (
        <TableScroll label={t('invitations.tableLabel')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('invitations.columns.email')}</th>
                <th scope="col">{t('invitations.columns.status')}</th>
                <th scope="col">{t('invitations.columns.rights')}</th>
                <th scope="col">{t('invitations.columns.sent')}</th>
                <th scope="col">{t('invitations.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((invitation) => {
                const a = invitation.attributes;
                const open = a.status === 'pending' || a.status === 'expired';
                return (
                  <tr key={invitation.id}>
                    <td>{a.email}</td>
                    <td>
                      <span className={STATUS_CLASS[a.status] ?? 'badge'}>{t(`invitations.statuses.${a.status}`)}</span>
                      <br />
                      <small className="muted">{stateText(invitation)}</small>
                    </td>
                    <td>
                      {a.isPublic ? t('invitations.public') : t('invitations.ownFlows')}
                      <br />
                      <small className="muted">
                        {a.isEditable ? t('invitations.editable') : t('invitations.viewOnly')}
                      </small>
                    </td>
                    <td>
                      {t('invitations.sentCount', { times: a.sentCount })}
                      <br />
                      <small className="muted">
                        {t('invitations.lastSent', { date: format.format(new Date(a.lastSentAt)) })}
                      </small>
                    </td>
                    <td>
                      {open && (
                        <span className="row-actions">
                          <RowAction
                            label={t('invitations.resendLabel', { email: a.email })}
                            onClick={() => void run(invitation, 'resend')}
                          >
                            {t('invitations.resend')}
                          </RowAction>
                          <RowAction
                            danger
                            label={t('invitations.cancelLabel', { email: a.email })}
                            onClick={() => setCancelling(invitation)}
                          >
                            {t('invitations.cancel')}
                          </RowAction>
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        title={t('invitations.cancelTitle', { email: cancelling?.attributes.email ?? '' })}
        confirmLabel={t('invitations.cancel')}
        danger
        pending={change.isPending}
        onConfirm={() => cancelling && void run(cancelling, 'cancel')}
        onCancel={() => setCancelling(null)}
      >
        <p>{t('invitations.cancelBody')}</p>
      </ConfirmDialog>
    </>
  );
}
