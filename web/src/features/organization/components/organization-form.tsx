import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import type { OrganizationDocument } from '../api/get-organization.ts';
import { useUpdateOrganization } from '../api/update-organization.ts';
import { CorporateLookupResult } from './corporate-lookup-result.tsx';
import { fieldErrorsOf } from './page-state.tsx';
import { useLookupCorporateNumber } from '../api/lookup-corporate-number.ts';

type Organization = OrganizationDocument['data'];

/** Name, corporate number (with lookup) or "not subject", and address; read-only for non-administrators. */
export function OrganizationForm(props: { organization: Organization; canEdit: boolean; onReload: () => void }) {
  const { t } = useTranslation(['organization', 'errors']);
  const a = props.organization.attributes;
  const update = useUpdateOrganization();
  const lookup = useLookupCorporateNumber();
  const [name, setName] = useState(a.name);
  const [corporateNumber, setCorporateNumber] = useState(a.corporateNumber ?? '');
  const [notSubject, setNotSubject] = useState(a.notSubjectToCorporateNumber);
  const [address, setAddress] = useState(a.address);
  const [saved, setSaved] = useState(false);
  const readOnly = !props.canEdit;

  const server = fieldErrorsOf(update.error);
  const errorsOf = (field: string) => (server[field] ?? []).map((code) => t(`errors:${code}`));
  const lookupFieldErrors = lookup.error instanceof ApiError && lookup.error.status === 422;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    update.mutate(
      {
        name,
        corporateNumber: notSubject ? null : corporateNumber.trim() || null,
        notSubjectToCorporateNumber: notSubject,
        address,
        lockVersion: a.lockVersion,
      },
      { onSuccess: () => setSaved(true) },
    );
  };

  const owner = a.owner;
  return (
    <form onSubmit={submit} noValidate className="org-form" aria-describedby={readOnly ? 'org-read-only' : undefined}>
      {readOnly && (
        <p id="org-read-only" className="notice">
          {t('info.readOnly')}
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>{t('info.code')}</dt>
          <dd>
            <code>{a.code}</code>
          </dd>
        </div>
        <div>
          <dt>{t('info.owner')}</dt>
          <dd>
            {owner
              ? t(owner.isCaller ? 'info.ownerYou' : 'info.ownerOther', { name: owner.name, loginId: owner.loginId })
              : t('info.noOwner')}
          </dd>
        </div>
      </dl>
      <FormField
        id="org-name"
        label={t('info.name')}
        value={name}
        required
        maxLength={100}
        autoComplete="organization"
        readOnly={readOnly}
        errors={errorsOf('name')}
        onChange={(event) => setName(event.target.value)}
      />
      <FormField
        id="org-corporate-number"
        label={t('info.corporateNumber')}
        hint={t('info.corporateNumberHint')}
        value={notSubject ? '' : corporateNumber}
        inputMode="numeric"
        maxLength={13}
        autoComplete="off"
        readOnly={readOnly}
        disabled={notSubject}
        errors={[
          ...errorsOf('corporateNumber'),
          ...(lookupFieldErrors ? [t(`errors:${(lookup.error as ApiError).code}`)] : []),
        ]}
        onChange={(event) => {
          setCorporateNumber(event.target.value);
          lookup.reset();
        }}
      />
      {!readOnly && !notSubject && (
        <div className="org-actions">
          <button
            type="button"
            className="button"
            disabled={lookup.isPending || corporateNumber.trim() === ''}
            onClick={() => lookup.mutate(corporateNumber.trim())}
          >
            {lookup.isPending ? t('info.lookingUp') : t('info.lookup')}
          </button>
        </div>
      )}
      {!notSubject && (
        <CorporateLookupResult
          result={lookup.data}
          error={lookupFieldErrors ? null : lookup.error}
          onUse={(found) => {
            setName(found.name);
            setAddress(found.address);
          }}
        />
      )}
      <CheckboxField
        id="org-not-subject"
        label={t('info.notSubject')}
        hint={t('info.notSubjectHint')}
        checked={notSubject}
        disabled={readOnly}
        onChange={(event) => {
          setNotSubject(event.target.checked);
          lookup.reset();
        }}
      />
      <FormField
        id="org-address"
        label={t('info.address')}
        value={address}
        maxLength={200}
        autoComplete="street-address"
        readOnly={readOnly}
        errors={errorsOf('address')}
        onChange={(event) => setAddress(event.target.value)}
      />
      {update.error && Object.keys(server).length === 0 && (
        <ApiErrorNotice error={update.error} onReload={props.onReload} />
      )}
      {saved && (
        <p role="status" className="success">
          {t('saved')}
        </p>
      )}
      {!readOnly && (
        <div className="org-actions">
          <button type="submit" className="button primary" disabled={update.isPending}>
            {update.isPending ? t('saving') : t('save')}
          </button>
        </div>
      )}
    </form>
  );
}
