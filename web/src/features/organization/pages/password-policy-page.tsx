import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { usePasswordPolicy } from '../api/get-password-policy.ts';
import { Loading } from '../components/page-state.tsx';
import { PasswordPolicyForm } from '../components/password-policy-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('organization', { ja, en });

/** The organization's password policy (administrators): stricter than the service baseline only. */
export function PasswordPolicyPage() {
  const { t } = useTranslation('organization');
  const policy = usePasswordPolicy();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    document.title = t('policy.title');
  }, [t]);
  if (policy.error instanceof ApiError && policy.error.code === 'IP_RESTRICTED') throw policy.error;
  return (
    <section aria-labelledby="policy-title" className="org-settings">
      <h1 id="policy-title">{t('policy.title')}</h1>
      <p>{t('policy.intro')}</p>
      <Loading pending={policy.isPending} />
      <ApiErrorNotice error={policy.error} />
      {policy.data && (
        <PasswordPolicyForm
          // A new key after a reload puts the server's current values back in the form.
          key={generation}
          policy={policy.data}
          onReload={() => void policy.refetch().then(() => setGeneration((n) => n + 1))}
        />
      )}
    </section>
  );
}
