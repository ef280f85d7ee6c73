import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { TableScroll } from '../../../components/data-list.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { SelectField } from '../../../components/select-field.tsx';
import type { BoxConnection } from '../api/box-connection.ts';
import {
  type BoxUploadStatus,
  UPLOAD_PAGE_SIZE,
  useBoxUploads,
  useConnectionFollowsUploads,
} from '../api/box-uploads.ts';
import { StatusBadge } from './status-badge.tsx';

const STATUSES: BoxUploadStatus[] = ['queued', 'uploading', 'done', 'failed'];

/**
 * The organization's recent uploads, newest change first; failed ones carry their error's message. The connection's
 * card above follows what the list shows.
 */
export function UploadsTable({ connection }: { connection: BoxConnection }) {
  const { t, i18n } = useTranslation(['box', 'errors']);
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<BoxUploadStatus | ''>('');
  const uploads = useBoxUploads(page, status || undefined);
  useConnectionFollowsUploads(uploads.data, connection);
  const when = japanDateTimeFormat(i18n.language);
  const total = uploads.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / UPLOAD_PAGE_SIZE));

  return (
    <section aria-labelledby="box-uploads-title" className="panel box-uploads">
      <h2 id="box-uploads-title">{t('uploads.title')}</h2>
      <div className="box-filter">
        <SelectField
          id="box-upload-status"
          label={t('uploads.filter')}
          value={status}
          options={[
            { value: '', label: t('uploads.all') },
            ...STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) })),
          ]}
          onChange={(event) => {
            setStatus(event.target.value as BoxUploadStatus | '');
            setPage(1);
          }}
        />
      </div>
      {uploads.isPending && (
        <p role="status" className="muted">
          {t('settings.loading')}
        </p>
      )}
      <ApiErrorNotice error={uploads.error} />
      {uploads.data && uploads.data.data.length === 0 && <p className="muted">{t('uploads.empty')}</p>}
      {uploads.data && uploads.data.data.length > 0 && (
        <TableScroll label={t('uploads.label')}>
          <table className="data-table box-uploads-table" aria-busy={uploads.isFetching}>
            <thead>
              <tr>
                <th scope="col">{t('uploads.document')}</th>
                <th scope="col">{t('uploads.status')}</th>
                <th scope="col">{t('uploads.error')}</th>
                <th scope="col" className="cell-number">
                  {t('uploads.attempts')}
                </th>
                <th scope="col">{t('uploads.updatedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {uploads.data.data.map(({ id, attributes }) => (
                <tr key={id} className={attributes.status === 'failed' ? 'box-row-failed' : undefined}>
                  <th scope="row" className="cell-wrap">
                    <Link to="/organizations/documents/$documentId" params={{ documentId: attributes.documentId }}>
                      {attributes.documentName}
                    </Link>
                    <span className="box-trigger">{t(`uploads.triggers.${attributes.trigger}`)}</span>
                  </th>
                  <td>
                    <StatusBadge status={attributes.status} />
                  </td>
                  <td className="cell-wrap box-error-cell">
                    {attributes.errorCode ? t(`errors:${attributes.errorCode}`) : ''}
                  </td>
                  <td className="cell-number">{attributes.attempts}</td>
                  <td>{when.format(new Date(attributes.updatedAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {pages > 1 && (
        <div className="org-actions box-pager">
          <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('uploads.previous')}
          </button>
          <span className="muted">{t('uploads.page', { page, pages })}</span>
          <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('uploads.next')}
          </button>
        </div>
      )}
    </section>
  );
}
