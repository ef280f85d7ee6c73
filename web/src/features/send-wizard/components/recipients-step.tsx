import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { getDraftTasks, saveDraftTasks } from '../api/draft-flow.ts';
import {
  addWizardParticipant,
  getWizardWorkspace,
  inviteWizardGuest,
  listWizardGroups,
  listWizardRoles,
  listWizardSignatureTypes,
} from '../api/recipients.ts';
import { useAction } from '../use-action.ts';
import type { Draft } from '../wizard-draft.ts';
import { type Assignee, compactOrders, newRecipient, type Recipient, signersOf, taskPlan } from '../wizard-state.ts';
import { RecipientRow } from './recipient-row.tsx';
import { WizardFooter } from './wizard-footer.tsx';

type Workspace = Awaited<ReturnType<typeof getWizardWorkspace>>;

const CORPORATE_NUMBER = /^[0-9]{13}$/;

function participantsOf(workspace: Workspace | undefined) {
  return (workspace?.attributes.participants ?? []).map((p) => p.attributes);
}

/** Saves the recipients as every document's task plan (the fields each signer already has are kept). */
export async function savePlans(draft: Draft): Promise<void> {
  for (const document of draft.documents) {
    const current = await getDraftTasks(document.id);
    await saveDraftTasks({
      documentId: document.id,
      lockVersion: current.meta.document.lockVersion,
      tasks: taskPlan(draft.recipients, draft.fields[document.id]),
    });
  }
}

/**
 * ② 宛先: who receives the documents, in order. An own group (with a role), a partner organization by corporate
 * number (added to the workspace as a participant that is not public), or a one-time user by name and e-mail
 * (invited to the draft: the invitation mail waits for 送信). The same order number means parallel.
 */
export function RecipientsStep(props: {
  draft: Draft;
  onChange: (patch: Partial<Draft>) => void;
  onBack: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation('sendWizard');
  const id = useId();
  const { draft } = props;
  const workspace = useQuery({
    queryKey: ['workspaces', 'detail', draft.workspaceId],
    queryFn: () => getWizardWorkspace(draft.workspaceId),
  });
  const groups = useQuery({ queryKey: ['groups', 'wizard'], queryFn: listWizardGroups });
  const roles = useQuery({ queryKey: ['roles', 'wizard'], queryFn: listWizardRoles });
  const signatureTypes = useQuery({ queryKey: ['signature-types', 'wizard'], queryFn: listWizardSignatureTypes });
  const participants = participantsOf(workspace.data);
  const workspaceGroups = participants.flatMap((p) =>
    p.kind === 'group' && p.groupId ? [{ id: p.groupId, name: p.groupName ?? '' }] : [],
  );
  // Administrators see every group of the organization (one not in the workspace yet is added to it); others the
  // workspace's groups.
  const groupChoices = [
    ...workspaceGroups,
    ...(groups.data ?? []).filter((g) => !workspaceGroups.some((w) => w.id === g.id)),
  ];
  const partners = participants.flatMap((p) =>
    p.kind === 'organization' && p.organizationId
      ? [{ id: p.organizationId, name: p.organizationName ?? '', corporateNumber: p.corporateNumber ?? '' }]
      : [],
  );

  const [groupId, setGroupId] = useState('');
  const [partner, setPartner] = useState('');
  const [guestName, setGuestName] = useState('');
  const [guestEmail, setGuestEmail] = useState('');
  const addGroup = useAction();
  const addPartner = useAction();
  const addGuest = useAction();
  const save = useAction();
  const [partnerProblem, setPartnerProblem] = useState<string | null>(null);

  const recipients = draft.recipients;
  const setRecipients = (next: Recipient[]) => props.onChange({ recipients: compactOrders(next) });
  const add = (assignee: Assignee) => setRecipients([...recipients, newRecipient(assignee, recipients)]);
  const refreshWorkspace = () => workspace.refetch();

  const chosenGroup = groupId || groupChoices[0]?.id || '';
  // Adding a group or a partner changes the workspace (its version is needed): not before it has loaded.
  const workspaceLoaded = workspace.data !== undefined;
  const onAddGroup = () =>
    void addGroup.run(async () => {
      const group = groupChoices.find((g) => g.id === chosenGroup);
      if (!group || !workspace.data) return;
      if (!workspaceGroups.some((g) => g.id === group.id)) {
        await addWizardParticipant({
          workspaceId: draft.workspaceId,
          lockVersion: workspace.data.attributes.lockVersion,
          participant: { kind: 'group', groupId: group.id },
        });
        await refreshWorkspace();
      }
      add({ kind: 'group', id: group.id, name: group.name });
    });

  const onAddPartner = () => {
    const value = partner.trim();
    const known = partners.find((p) => p.id === value || p.corporateNumber === value);
    if (known) {
      add({ kind: 'organization', id: known.id, name: known.name });
      setPartner('');
      return;
    }
    if (!CORPORATE_NUMBER.test(value)) {
      setPartnerProblem(t('recipients.corporateNumberInvalid'));
      return;
    }
    setPartnerProblem(null);
    void addPartner.run(async () => {
      if (!workspace.data) return;
      const changed = await addWizardParticipant({
        workspaceId: draft.workspaceId,
        lockVersion: workspace.data.attributes.lockVersion,
        participant: { kind: 'organization', corporateNumber: value },
      });
      await refreshWorkspace();
      const added = participantsOf(changed).find((p) => p.kind === 'organization' && p.corporateNumber === value);
      if (added?.organizationId)
        add({ kind: 'organization', id: added.organizationId, name: added.organizationName ?? '' });
      setPartner('');
    });
  };

  const onAddGuest = () =>
    void addGuest.run(async () => {
      const invitation = await inviteWizardGuest({
        businessFlowId: draft.flowId,
        name: guestName.trim(),
        email: guestEmail.trim(),
        locale: i18n.language === 'en' ? 'en' : 'ja',
      });
      const { oneTimeUserId, name, email } = invitation.attributes;
      add({
        kind: 'one_time_user',
        id: oneTimeUserId,
        name: name ?? guestName.trim(),
        email: email ?? guestEmail.trim(),
      });
      setGuestName('');
      setGuestEmail('');
    });

  const next = () =>
    void save.run(async () => {
      await savePlans(draft);
      props.onSaved();
    });

  const sortedRecipients = compactOrders(recipients);
  return (
    <div className="wizard-step-body">
      <h2>{t('recipients.heading')}</h2>
      <ApiErrorNotice error={workspace.error} />
      <div className="wizard-add-grid">
        <fieldset className="wizard-add">
          <legend>{t('recipients.ownGroup')}</legend>
          <div className="field">
            <label htmlFor={`${id}-group`}>{t('recipients.group')}</label>
            <select id={`${id}-group`} value={chosenGroup} onChange={(event) => setGroupId(event.target.value)}>
              {groupChoices.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="button"
            disabled={!chosenGroup || !workspaceLoaded || addGroup.pending}
            onClick={onAddGroup}
          >
            {t('recipients.addGroup')}
          </button>
          <ApiErrorNotice error={addGroup.error} action={t('actions.addRecipient')} />
        </fieldset>
        <fieldset className="wizard-add">
          <legend>{t('recipients.partner')}</legend>
          <div className="field">
            <label htmlFor={`${id}-partner`}>{t('recipients.corporateNumber')}</label>
            <input
              id={`${id}-partner`}
              inputMode="numeric"
              autoComplete="off"
              list={`${id}-partners`}
              maxLength={13}
              value={partner}
              aria-invalid={partnerProblem ? true : undefined}
              onChange={(event) => setPartner(event.target.value)}
            />
            <datalist id={`${id}-partners`}>
              {partners.map((p) => (
                <option key={p.id} value={p.corporateNumber}>
                  {p.name}
                </option>
              ))}
            </datalist>
            <p className="hint">{t('recipients.partnerHint')}</p>
            {partnerProblem && <p className="field-error">{partnerProblem}</p>}
          </div>
          <button
            type="button"
            className="button"
            disabled={!partner.trim() || !workspaceLoaded || addPartner.pending}
            onClick={onAddPartner}
          >
            {t('recipients.addPartner')}
          </button>
          <ApiErrorNotice error={addPartner.error} action={t('actions.addRecipient')} />
        </fieldset>
        <fieldset className="wizard-add">
          <legend>{t('recipients.guest')}</legend>
          <div className="field">
            <label htmlFor={`${id}-guest-name`}>{t('recipients.guestName')}</label>
            <input
              id={`${id}-guest-name`}
              maxLength={100}
              autoComplete="off"
              value={guestName}
              onChange={(event) => setGuestName(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-guest-email`}>{t('recipients.guestEmail')}</label>
            <input
              id={`${id}-guest-email`}
              type="email"
              maxLength={254}
              autoComplete="off"
              value={guestEmail}
              onChange={(event) => setGuestEmail(event.target.value)}
            />
          </div>
          <button
            type="button"
            className="button"
            disabled={!guestName.trim() || !guestEmail.trim() || addGuest.pending}
            onClick={onAddGuest}
          >
            {t('recipients.addGuest')}
          </button>
          <ApiErrorNotice error={addGuest.error} action={t('actions.addRecipient')} />
        </fieldset>
      </div>
      <h3>{t('recipients.listHeading')}</h3>
      {sortedRecipients.length === 0 ? (
        <p className="muted">{t('recipients.empty')}</p>
      ) : (
        <ol className="wizard-recipients" aria-label={t('recipients.listHeading')}>
          {sortedRecipients.map((recipient, index) => (
            <RecipientRow
              key={recipient.key}
              recipient={recipient}
              index={index}
              recipients={sortedRecipients}
              roles={roles.data ?? []}
              signatureTypes={signatureTypes.data ?? []}
              onRecipients={setRecipients}
            />
          ))}
        </ol>
      )}
      {sortedRecipients.length > 0 && signersOf(sortedRecipients).length === 0 && (
        <p className="hint">{t('recipients.noSigner')}</p>
      )}
      <WizardFooter
        draft={draft}
        nextLabel={t('next')}
        pending={save.pending}
        error={save.error}
        action={t('actions.saveRecipients')}
        nextDisabled={recipients.length === 0}
        onBack={props.onBack}
        onNext={next}
      />
    </div>
  );
}
