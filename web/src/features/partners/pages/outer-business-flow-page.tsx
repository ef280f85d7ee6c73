import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Fragment, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { TableScroll } from '../../../components/data-list.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { currentUserQueryOptions } from '../../../session/current-user.ts';
import { type OuterFlow, useDocumentsTasks, useOuterFlow, useOuterWorkspace } from '../api/outer-flow.ts';
import { MyTasks, type TaskRow } from '../components/my-tasks.tsx';
import '../partners.css';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('partners', { ja, en });

const route = getRouteApi('/guarded/outer-business-flows/$outerBusinessFlowId');

const STATUS_CLASS: Record<string, string> = {
  in_progress: 'badge badge-info',
  complete: 'badge badge-ok',
  completed: 'badge badge-ok',
  incomplete: 'badge badge-warn',
  remanded: 'badge badge-warn',
  cancelled: 'badge badge-muted',
};

/**
 * A business flow of another organization's workspace, as the partner organization sees it: its own tasks first
 * (approve and read run here, sign opens the signing screen), then what the public / editable rules let it see.
 */
export function OuterBusinessFlowPage() {
  const { t } = useTranslation(['partners', 'common']);
  const { outerBusinessFlowId } = route.useParams();
  const flow = useOuterFlow(outerBusinessFlowId);
  const name = flow.data?.attributes.name;

  useEffect(() => {
    document.title = `${name ?? t('outer.title')} | ${t('common:appName')}`;
  }, [t, name]);

  const reload = () => void flow.refetch();

  return (
    <section aria-labelledby="outer-flow-title" className="admin-screen outer-flow">
      <p className="back-link">
        <Link to="/organizations/business-flows">{t('outer.back')}</Link>
      </p>
      <div className="screen-header">
        <h1 id="outer-flow-title">{name ?? t('outer.title')}</h1>
        {flow.data && (
          <span className={STATUS_CLASS[flow.data.attributes.status] ?? 'badge'}>
            {t(`flowStatus.${flow.data.attributes.status}`)}
          </span>
        )}
      </div>
      <DetailStatus query={flow} loading={t('outer.loading')} notFound={t('outer.notFound')} />
      {flow.data && <OuterBody flow={flow.data} onReload={reload} />}
    </section>
  );
}

function OuterBody({ flow, onReload }: { flow: OuterFlow; onReload: () => void }) {
  const { t } = useTranslation('partners');
  const a = flow.attributes;
  const me = useQuery(currentUserQueryOptions());
  const workspace = useOuterWorkspace(a.workspace.id);
  const documents = a.documents ?? [];
  const tasks = useDocumentsTasks(documents.map((d) => d.id));
  const organizationId = me.data?.attributes.organization.id;
  const rows: TaskRow[] = tasks.flatMap((query, index) =>
    (query.data ?? [])
      .filter(
        (task) => task.attributes.assignee.kind === 'organization' && task.attributes.assignee.id === organizationId,
      )
      .map((task) => ({ task, documentName: documents[index]?.name ?? '' })),
  );
  const w = workspace.data?.attributes;
  return (
    <>
      {w &&
        (w.isOwnerOrganization ? (
          <p className="notice">
            {t('outer.ownerView')}{' '}
            <Link to="/business-flows/$businessFlowId" params={{ businessFlowId: flow.id }}>
              {t('outer.openOwnerView')}
            </Link>
          </p>
        ) : (
          <div className="notice">
            <p>{t('outer.sharedBy', { organization: w.ownerOrganization.name, workspace: w.name })}</p>
            <p>{w.canSeeAllFlows ? t('outer.rightsSeeAll') : t('outer.rightsSeeOwn')}</p>
            <p>{w.canEdit ? t('outer.rightsEdit') : t('outer.rightsView')}</p>
          </div>
        ))}
      <MyTasks rows={rows} loading={!me.data || tasks.some((q) => q.isPending)} onReload={onReload} />
      <section aria-labelledby="outer-facts-title" className="panel">
        <div className="screen-header">
          <h2 id="outer-facts-title">{t('outer.facts')}</h2>
          {a.canEdit && (
            <Link to="/business-flows/$businessFlowId" params={{ businessFlowId: flow.id }} className="button">
              {t('outer.edit')}
            </Link>
          )}
        </div>
        <dl className="outer-facts">
          <dt>{t('outer.workspace')}</dt>
          <dd>{a.workspace.name}</dd>
          {w && (
            <>
              <dt>{t('outer.owner')}</dt>
              <dd>{w.ownerOrganization.name}</dd>
            </>
          )}
          {a.comment && (
            <>
              <dt>{t('outer.comment')}</dt>
              <dd>{a.comment}</dd>
            </>
          )}
          {a.properties.map((property) => (
            <Fragment key={property.propertyId}>
              <dt>{property.name}</dt>
              <dd>{property.labelName ?? property.value}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
      <section aria-labelledby="outer-documents-title" className="panel">
        <h2 id="outer-documents-title">{t('outer.documents')}</h2>
        {documents.length === 0 ? (
          <p className="muted">{t('outer.documentsEmpty')}</p>
        ) : (
          <TableScroll label={t('outer.documentsTableLabel')}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('outer.columns.name')}</th>
                  <th scope="col">{t('outer.columns.status')}</th>
                  <th scope="col">{t('outer.columns.currentOrder')}</th>
                </tr>
              </thead>
              <tbody>
                {documents.map((document) => (
                  <tr key={document.id}>
                    <td>
                      <Link to="/organizations/documents/$documentId" params={{ documentId: document.id }}>
                        {document.name}
                      </Link>
                    </td>
                    <td>
                      <span className={STATUS_CLASS[document.status] ?? 'badge'}>
                        {t(`documentStatus.${document.status}`)}
                      </span>
                    </td>
                    <td>
                      {document.currentOrder == null
                        ? t('outer.noOrder')
                        : t('outer.order', { order: document.currentOrder })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </>
  );
}
