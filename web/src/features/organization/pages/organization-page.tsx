import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { useOrganization } from '../api/get-organization.ts';
import { OrganizationForm } from '../components/organization-form.tsx';
import { Loading } from '../components/page-state.tsx';
import { PlanPanel } from '../components/plan-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('organization', { ja, en });

/** Organization information (administrators edit it), the owner, and the plan with its options (owner changes). */
export function OrganizationPage() {
  const { t } = useTranslation('organization');
  const organization = useOrganization();
  const me = useCurrentUser();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    document.title = t('info.title');
  }, [t]);
  if (organization.error instanceof ApiError && organization.error.code === 'IP_RESTRICTED') {
    throw organization.error;
  }
  const reload = () => void organization.refetch().then(() => setGeneration((n) => n + 1));
  const document_ = organization.data;
  return (
    <section aria-labelledby="organization-title" className="org-settings">
      <h1 id="organization-title">{t('info.title')}</h1>
      <Loading pending={organization.isPending} />
      <ApiErrorNotice error={organization.error} />
      {document_ && (
        <>
          <OrganizationForm
            key={`info-${generation}`}
            organization={document_.data}
            canEdit={me.data?.attributes.isAdmin ?? false}
            onReload={reload}
          />
          <PlanPanel
            key={`plan-${generation}`}
            document={document_}
            isAdmin={me.data?.attributes.isAdmin ?? false}
            onReload={reload}
          />
        </>
      )}
    </section>
  );
}
