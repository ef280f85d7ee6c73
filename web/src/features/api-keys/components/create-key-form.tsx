import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { type ApiKeyScope, type IssuedApiKey, useCreateApiKey } from '../api/api-keys.ts';
import { EXPIRY_CHOICES, type ExpiryChoice, expiresAtOf, SCOPE_AREAS } from './scopes.ts';

/** A new key: its name, scopes (checkboxes per area) and expiry; `onCreated` receives the one-time secret. */
export function CreateKeyForm({ onCreated }: { onCreated: (issued: IssuedApiKey) => void }) {
  const { t } = useTranslation(['apiKeys', 'errors']);
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expiry, setExpiry] = useState<ExpiryChoice>('90');
  const [date, setDate] = useState('');
  const [local, setLocal] = useState<Record<string, string>>({});

  const server = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const errorsOf = (field: string) => [
    ...(local[field] ? [local[field]!] : []),
    ...(server[field] ?? []).map((code) => t(`errors:${code}`)),
  ];
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = t('form.nameRequired');
    if (scopes.length === 0) problems.scopes = t('form.scopesRequired');
    const expiresAt = expiresAtOf(expiry, date);
    if (expiresAt === undefined) problems.expiresAt = t('form.dateRequired');
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    create.mutate(
      { name: name.trim(), scopes, expiresAt },
      {
        onSuccess: (issued) => {
          setName('');
          setScopes([]);
          onCreated(issued);
        },
      },
    );
  };

  const showNotice = create.error && Object.keys(server).length === 0;
  return (
    <form onSubmit={submit} noValidate className="org-form api-key-form" aria-labelledby="api-key-create-title">
      <h2 id="api-key-create-title">{t('form.title')}</h2>
      <FormField
        id="api-key-name"
        label={t('form.name')}
        hint={t('form.nameHint')}
        value={name}
        maxLength={100}
        autoComplete="off"
        errors={errorsOf('name')}
        onChange={(event) => setName(event.target.value)}
      />
      <fieldset className="api-key-scopes" aria-describedby="api-key-scopes-hint">
        <legend>{t('form.scopes')}</legend>
        <p id="api-key-scopes-hint" className="hint">
          {t('form.scopesHint')}
        </p>
        {SCOPE_AREAS.map(({ area, scopes: areaScopes }) => (
          <div key={area} className="api-key-scope-area">
            <span className="api-key-scope-area-name">{t(`areas.${area}`)}</span>
            {areaScopes.map((scope) => (
              <label key={scope} className="checkbox">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                />
                <span>{t(`scopes.${scope.replace(':', '_')}`)}</span>
              </label>
            ))}
          </div>
        ))}
        {errorsOf('scopes').map((message) => (
          <p key={message} className="form-error">
            {message}
          </p>
        ))}
      </fieldset>
      <SelectField
        id="api-key-expiry"
        label={t('form.expiry')}
        value={expiry}
        options={EXPIRY_CHOICES.map((choice) => ({ value: choice, label: t(`form.expiryChoices.${choice}`) }))}
        onChange={(event) => setExpiry(event.target.value as ExpiryChoice)}
      />
      {expiry === 'date' && (
        <FormField
          id="api-key-expiry-date"
          label={t('form.expiryDate')}
          type="date"
          value={date}
          errors={errorsOf('expiresAt')}
          onChange={(event) => setDate(event.target.value)}
        />
      )}
      {expiry !== 'date' &&
        errorsOf('expiresAt').map((message) => (
          <p key={message} className="form-error">
            {message}
          </p>
        ))}
      {showNotice && <ApiErrorNotice error={create.error} />}
      <div className="org-actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? t('form.creating') : t('form.create')}
        </button>
      </div>
    </form>
  );
}
