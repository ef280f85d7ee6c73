import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { useGroups } from '../../groups/api/list-groups.ts';
import { type SsoSettings, useDeleteSsoSettings, useSsoSettings, useUpdateSsoSettings } from '../api/sso-settings.ts';
import { redirectUri } from '../api/sso-sign-in.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('sso', { ja, en });

/**
 * The organization's identity provider (administrators, professional plan): issuer, client, scopes, just-in-time
 * users and "SSO only", with the redirect URI to register at the provider (the page origin, spec §7).
 */
export function SsoSettingsPage() {
  const { t } = useTranslation('sso');
  const settings = useSsoSettings();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    document.title = t('settings.title');
  }, [t]);
  if (settings.error instanceof ApiError && settings.error.code === 'IP_RESTRICTED') throw settings.error;
  return (
    <section aria-labelledby="sso-title" className="org-settings">
      <h1 id="sso-title">{t('settings.title')}</h1>
      <p>{t('settings.intro')}</p>
      {settings.isPending && (
        <p role="status" className="muted">
          {t('settings.loading')}
        </p>
      )}
      <ApiErrorNotice error={settings.error} />
      {settings.data && (
        <SsoSettingsForm
          key={generation}
          settings={settings.data}
          onReset={() => void settings.refetch().then(() => setGeneration((n) => n + 1))}
        />
      )}
    </section>
  );
}

function SsoSettingsForm({ settings, onReset }: { settings: SsoSettings; onReset: () => void }) {
  const { t } = useTranslation(['sso', 'errors']);
  const me = useCurrentUser();
  const groups = useGroups({ q: '', page: 1, size: 100, sort: 'name' });
  const update = useUpdateSsoSettings();
  const remove = useDeleteSsoSettings();
  const [issuer, setIssuer] = useState(settings.issuer);
  const [clientId, setClientId] = useState(settings.clientId);
  const [clientSecret, setClientSecret] = useState('');
  const [extraScopes, setExtraScopes] = useState(settings.extraScopes);
  const [jitEnabled, setJitEnabled] = useState(settings.jitEnabled);
  const [jitGroupId, setJitGroupId] = useState(settings.jitGroupId ?? '');
  const [ssoOnly, setSsoOnly] = useState(settings.ssoOnly);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);

  const server = update.error instanceof ApiError ? update.error.fieldErrors() : {};
  const errorsOf = (name: string) => [
    ...(local[name] ? [local[name]!] : []),
    ...(server[name] ?? []).map((code) => t(`errors:${code}`)),
  ];
  const orgCode = me.data?.attributes.organization.code;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!issuer.trim()) problems.issuer = t('settings.required', { field: t('settings.issuer') });
    if (!clientId.trim()) problems.clientId = t('settings.required', { field: t('settings.clientId') });
    if (!settings.clientSecretSet && !clientSecret) {
      problems.clientSecret = t('settings.required', { field: t('settings.clientSecret') });
    }
    if (jitEnabled && !jitGroupId) problems.jitGroupId = t('errors:SSO_JIT_GROUP_REQUIRED');
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    update.mutate(
      {
        issuer: issuer.trim(),
        clientId: clientId.trim(),
        ...(clientSecret ? { clientSecret } : {}),
        extraScopes: extraScopes.trim(),
        jitEnabled,
        jitGroupId: jitGroupId || null,
        ssoOnly,
      },
      {
        onSuccess: () => {
          setClientSecret('');
          toast.success(t('settings.saved'));
        },
      },
    );
  };

  const showNotice = update.error && Object.keys(server).length === 0;
  return (
    <>
      <p role="status" className={settings.configured ? 'success' : 'muted'}>
        {settings.configured ? t('settings.configured') : t('settings.notConfigured')}
      </p>
      <dl className="sso-facts">
        <dt>{t('settings.redirectUri')}</dt>
        <dd>
          <code data-testid="sso-redirect-uri">{redirectUri()}</code>
          <p className="hint">{t('settings.redirectUriHint')}</p>
        </dd>
        {orgCode && (
          <>
            <dt>{t('settings.loginUrl')}</dt>
            <dd>
              <code data-testid="sso-login-url">{`${window.location.origin}/${encodeURIComponent(orgCode)}/sso-login`}</code>
            </dd>
          </>
        )}
      </dl>
      <form onSubmit={submit} noValidate className="org-form">
        <FormField
          id="sso-issuer"
          label={t('settings.issuer')}
          hint={t('settings.issuerHint')}
          type="url"
          value={issuer}
          errors={errorsOf('issuer')}
          onChange={(event) => setIssuer(event.target.value)}
        />
        <FormField
          id="sso-client-id"
          label={t('settings.clientId')}
          value={clientId}
          autoComplete="off"
          errors={errorsOf('clientId')}
          onChange={(event) => setClientId(event.target.value)}
        />
        <FormField
          id="sso-client-secret"
          label={t('settings.clientSecret')}
          hint={settings.clientSecretSet ? t('settings.clientSecretKept') : t('settings.clientSecretNew')}
          type="password"
          autoComplete="new-password"
          value={clientSecret}
          errors={errorsOf('clientSecret')}
          onChange={(event) => setClientSecret(event.target.value)}
        />
        <FormField
          id="sso-extra-scopes"
          label={t('settings.extraScopes')}
          hint={t('settings.extraScopesHint')}
          value={extraScopes}
          errors={errorsOf('extraScopes')}
          onChange={(event) => setExtraScopes(event.target.value)}
        />
        <CheckboxField
          id="sso-jit"
          label={t('settings.jitEnabled')}
          hint={t('settings.jitEnabledHint')}
          checked={jitEnabled}
          errors={errorsOf('jitEnabled')}
          onChange={(event) => setJitEnabled(event.target.checked)}
        />
        {jitEnabled && (
          <>
            <SelectField
              id="sso-jit-group"
              label={t('settings.jitGroup')}
              value={jitGroupId}
              aria-invalid={errorsOf('jitGroupId').length > 0 ? true : undefined}
              options={[
                { value: '', label: t('settings.jitGroupChoose') },
                ...(groups.data?.data ?? []).map((group) => ({ value: group.id, label: group.attributes.name })),
              ]}
              onChange={(event) => setJitGroupId(event.target.value)}
            />
            {errorsOf('jitGroupId').map((message) => (
              <p key={message} className="form-error">
                {message}
              </p>
            ))}
          </>
        )}
        <CheckboxField
          id="sso-only"
          label={t('settings.ssoOnly')}
          hint={t('settings.ssoOnlyHint')}
          checked={ssoOnly}
          errors={errorsOf('ssoOnly')}
          onChange={(event) => setSsoOnly(event.target.checked)}
        />
        {showNotice && <ApiErrorNotice error={update.error} onReload={onReset} />}
        <div className="org-actions">
          <button type="submit" className="button primary" disabled={update.isPending}>
            {update.isPending ? t('settings.saving') : t('settings.save')}
          </button>
          {settings.configured && (
            <button type="button" className="button danger" onClick={() => setConfirming(true)}>
              {t('settings.remove')}
            </button>
          )}
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('settings.remove')}
        confirmLabel={t('settings.remove')}
        danger
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              toast.success(t('settings.removed'));
              onReset();
            },
          })
        }
      >
        <p>{t('settings.removeConfirm')}</p>
      </ConfirmDialog>
      <ApiErrorNotice error={remove.error} />
    </>
  );
}
