import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { BusinessFlowDetail } from '../api/get-business-flow.ts';

/** The flow's facts: workspace (linked), ID for system link, comment, auto-completion, dates and property values. */
export function FlowFacts({ flow }: { flow: BusinessFlowDetail }) {
  const { t, i18n } = useTranslation('businessFlows');
  const a = flow.attributes;
  const time = japanDateTimeFormat(i18n.language);
  const when = (value: string | null | undefined) => (value ? time.format(new Date(value)) : '—');
  return (
    <section aria-labelledby="flow-facts-title" className="panel">
      <h2 id="flow-facts-title" className="visually-hidden">
        {t('detail.title')}
      </h2>
      <dl className="facts">
        <div>
          <dt>{t('detail.workspace')}</dt>
          <dd>
            <Link to="/organizations/workspaces/$workspaceId" params={{ workspaceId: a.workspace.id }}>
              {a.workspace.name}
            </Link>
          </dd>
        </div>
        <div>
          <dt>{t('detail.systemLinkId')}</dt>
          <dd>{a.systemLinkId ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('detail.autoComplete')}</dt>
          <dd>{a.autoComplete ? t('detail.on') : t('detail.off')}</dd>
        </div>
        <div>
          <dt>{t('detail.createdAt')}</dt>
          <dd>{when(a.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('detail.updatedAt')}</dt>
          <dd>{when(a.updatedAt)}</dd>
        </div>
        {a.completedAt && (
          <div>
            <dt>{t('detail.completedAt')}</dt>
            <dd>{when(a.completedAt)}</dd>
          </div>
        )}
        <div>
          <dt>{t('detail.comment')}</dt>
          <dd>{a.comment ?? '—'}</dd>
        </div>
        {a.properties.map((property) => (
          <div key={property.propertyId}>
            <dt>{property.name}</dt>
            <dd>{property.labelName ?? (property.value || t('properties.empty'))}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
