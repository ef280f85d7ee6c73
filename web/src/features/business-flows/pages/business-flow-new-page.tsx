import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCreateBusinessFlow } from '../api/create-business-flow.ts';
import { useFlowProperties } from '../api/list-flow-properties.ts';
import { useFlowTemplates } from '../api/list-flow-templates.ts';
import { useFlowWorkspaces } from '../api/list-flow-workspaces.ts';
import { FlowForm } from '../components/flow-form.tsx';
import { createAttributes } from '../flow-form-state.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('businessFlows', { ja, en });

const route = getRouteApi('/guarded/organizations/business-flows/new/details');

/** A new business flow in a workspace the user may edit: from scratch or from a business flow template. */
export function BusinessFlowNewPage() {
  const { t } = useTranslation(['businessFlows', 'common']);
  const { workspaceId } = route.useSearch();
  const navigate = useNavigate();
  const workspaces = useFlowWorkspaces();
  const properties = useFlowProperties();
  const templates = useFlowTemplates(true);
  const create = useCreateBusinessFlow();

  useEffect(() => {
    document.title = `${t('new.title')} | ${t('common:appName')}`;
  }, [t]);

  const editable = (workspaces.data ?? []).filter((w) => w.canEdit);
  const ready = workspaces.isSuccess && !properties.isPending;

  return (
    <section aria-labelledby="flow-new-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/business-flows">{t('new.back')}</Link>
      </p>
      <h1 id="flow-new-title">{t('new.title')}</h1>
      {!ready && (
        <p role="status" className="muted">
          {t('detail.loading')}
        </p>
      )}
      {ready && editable.length === 0 && <p className="notice">{t('new.noWorkspace')}</p>}
      {ready && editable.length > 0 && (
        <section className="panel" aria-labelledby="flow-new-title">
          <FlowForm
            idPrefix="flow-new"
            workspaces={editable}
            initialWorkspaceId={editable.some((w) => w.id === workspaceId) ? (workspaceId ?? '') : ''}
            definitions={properties.data ?? []}
            templates={templates.data ?? []}
            onCancel={() => void navigate({ to: '/organizations/business-flows' })}
            onSubmit={async (input) => {
              const flow = await create.mutateAsync({
                workspaceId: input.workspaceId,
                attributes: { ...createAttributes(input, properties.data ?? []), draft: false },
              });
              toast.success(t('new.created', { name: flow.attributes.name }));
              await navigate({ to: '/business-flows/$businessFlowId', params: { businessFlowId: flow.id } });
            }}
          />
        </section>
      )}
    </section>
  );
}
