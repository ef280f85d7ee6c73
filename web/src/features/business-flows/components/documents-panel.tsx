import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { TableScroll } from '../../../components/data-list.tsx';
import type { BusinessFlowDetail } from '../api/get-business-flow.ts';
import { StatusBadge } from './status-badge.tsx';

/** The flow's documents (name, type, status, current order) and the link to upload one. */
export function DocumentsPanel({ flow, canUpload }: { flow: BusinessFlowDetail; canUpload: boolean }) {
  const { t } = useTranslation('businessFlows');
  const documents = flow.attributes.documents ?? [];
  return (
    <section aria-labelledby="flow-documents-title" className="panel">
      <div className="screen-header">
        <h2 id="flow-documents-title">{t('documents.title')}</h2>
        {canUpload && (
          <Link
            to="/organizations/business-flows/$businessFlowId/documents/new"
            params={{ businessFlowId: flow.id }}
            className="button primary"
          >
            {t('documents.upload')}
          </Link>
        )}
      </div>
      {documents.length === 0 ? (
        <p className="muted">{t('documents.empty')}</p>
      ) : (
        <TableScroll label={t('documents.tableLabel')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('documents.columns.name')}</th>
                <th scope="col">{t('documents.columns.type')}</th>
                <th scope="col">{t('documents.columns.status')}</th>
                <th scope="col">{t('documents.columns.currentOrder')}</th>
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
                  <td>{t(`documentTypes.${document.documentType}`)}</td>
                  <td>
                    <StatusBadge status={document.status} document />
                  </td>
                  <td>
                    {document.currentOrder == null
                      ? t('documents.noOrder')
                      : t('documents.order', { order: document.currentOrder })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
