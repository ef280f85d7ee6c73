import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { findPartnerOrganization } from '../api/find-partner.ts';
import type { WorkspaceDetail } from '../api/get-workspace.ts';
import { useOwnGroups } from '../api/list-own-groups.ts';
import { useAddParticipant } from '../api/participants.ts';
import { isCorporateNumber } from '../validation.ts';

/** Adds an own group (a select of the organization's groups not yet taking part). */
export function AddGroup(props: { workspace: WorkspaceDetail; onReload: () => void }) {
  const { t } = useTranslation('workspaces');
  const groups = useOwnGroups();
  const add = useAddParticipant();
  const [groupId, setGroupId] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const taken = new Set((props.workspace.attributes.participants ?? []).map((p) => p.attributes.groupId));
  const candidates = (groups.data ?? []).filter((g) => !taken.has(g.id));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const group = candidates.find((g) => g.id === groupId);
    if (!group) return;
    setFailure(null);
    try {
      await add.mutateAsync({
        workspaceId: props.workspace.id,
        lockVersion: props.workspace.attributes.lockVersion,
        participant: { kind: 'group', groupId, isPublic: true, isEditable: true },
      });
      toast.success(t('addGroup.added', { name: group.name }));
      setGroupId('');
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <form className="panel admin-form" onSubmit={submit} aria-labelledby="add-group-title">
      <h2 id="add-group-title">{t('addGroup.title')}</h2>
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      {candidates.length === 0 && groups.isSuccess ? (
        <p className="muted">{t('addGroup.none')}</p>
      ) : (
        <div className="property-option">
          <SelectField
            id="add-group-select"
            label={t('addGroup.group')}
            value={groupId}
            onChange={(event) => setGroupId(event.target.value)}
            options={[
              { value: '', label: t('addGroup.choose') },
              ...candidates.map((g) => ({ value: g.id, label: g.name })),
            ]}
          />
          <div className="property-option-actions">
            <button type="submit" className="button" disabled={!groupId || add.isPending}>
              {t('addGroup.submit')}
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

type Found = Awaited<ReturnType<typeof findPartnerOrganization>>;

/**
 * Adds a partner organization: the 13-digit corporate number finds the registered organization, its name is shown
 * to confirm, then it is added with the chosen flags.
 */
export function AddPartner(props: { workspace: WorkspaceDetail; onReload: () => void }) {
  const { t } = useTranslation('workspaces');
  const add = useAddParticipant();
  const [number, setNumber] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [finding, setFinding] = useState(false);
  const [found, setFound] = useState<Found | null>(null);
  // A partner sees only the flows it has tasks in unless the user makes it public.
  const [flags, setFlags] = useState({ isPublic: false, isEditable: false });
  const [failure, setFailure] = useState<unknown>(null);

  const find = async (event: FormEvent) => {
    event.preventDefault();
    setFound(null);
    setFailure(null);
    if (!isCorporateNumber(number)) {
      setInvalid(true);
      document.getElementById('add-partner-number')?.focus();
      return;
    }
    setFinding(true);
    try {
      setFound(await findPartnerOrganization(number.trim()));
    } catch (error) {
      setFailure(error);
    } finally {
      setFinding(false);
    }
  };
  const confirm = async () => {
    if (!found) return;
    setFailure(null);
    try {
      await add.mutateAsync({
        workspaceId: props.workspace.id,
        lockVersion: props.workspace.attributes.lockVersion,
        participant: { kind: 'organization', organizationId: found.id, ...flags },
      });
      toast.success(t('addPartner.added', { name: found.attributes.name }));
      setFound(null);
      setNumber('');
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <section className="panel" aria-labelledby="add-partner-title">
      <h2 id="add-partner-title">{t('addPartner.title')}</h2>
      <form className="admin-form" onSubmit={find} noValidate>
        <div className="property-option">
          <FormField
            id="add-partner-number"
            label={t('addPartner.corporateNumber')}
            hint={t('addPartner.hint')}
            value={number}
            inputMode="numeric"
            autoComplete="off"
            maxLength={13}
            errors={invalid ? [t('addPartner.invalid')] : []}
            onChange={(event) => {
              setNumber(event.target.value);
              setInvalid(false);
              setFound(null);
            }}
          />
          <div className="property-option-actions">
            <button type="submit" className="button" disabled={finding}>
              {finding ? t('addPartner.finding') : t('addPartner.find')}
            </button>
          </div>
        </div>
      </form>
      <ApiErrorNotice error={failure} onReload={props.onReload} />
      {found && (
        <div className="admin-form">
          <p role="status" className="notice">
            {t('addPartner.found', { name: found.attributes.name, corporateNumber: found.attributes.corporateNumber })}
          </p>
          <CheckboxField
            id="add-partner-public"
            label={t('addPartner.isPublic')}
            checked={flags.isPublic}
            onChange={(event) => setFlags((f) => ({ ...f, isPublic: event.target.checked }))}
          />
          <CheckboxField
            id="add-partner-editable"
            label={t('addPartner.isEditable')}
            checked={flags.isEditable}
            onChange={(event) => setFlags((f) => ({ ...f, isEditable: event.target.checked }))}
          />
          <div className="form-actions">
            <button type="button" className="button primary" disabled={add.isPending} onClick={() => void confirm()}>
              {t('addPartner.confirm')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
