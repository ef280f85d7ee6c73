import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveDocumentFile } from '../../../api/download-document.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { TableScroll } from '../../../components/data-list.tsx';
import { formatSize } from './file-drop.tsx';

export interface VersionRow {
  version: number;
  fileName: string;
  size: number;
  scanStatus: string;
  uploadedAt: string;
}

/** Every uploaded version (a re-upload keeps the old ones), newest first, each downloadable. */
export function VersionsPanel({ documentId, versions }: { documentId: string; versions: VersionRow[] }) {
  const { t, i18n } = useTranslation('documents');
  const [failure, setFailure] = useState<unknown>(null);
  const download = async (version: number) => {
    setFailure(null);
    try {
      await saveDocumentFile(documentId, version);
    } catch (error) {
      setFailure(error);
    }
  };
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  return (
    <section aria-labelledby="document-versions-title" className="panel">
      <h2 id="document-versions-title">{t('versions.title')}</h2>
      <ApiErrorNotice error={failure} />
      <TableScroll label={t('versions.tableLabel')}>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('versions.version')}</th>
              <th scope="col">{t('versions.fileName')}</th>
              <th scope="col">{t('versions.size')}</th>
              <th scope="col">{t('versions.scan')}</th>
              <th scope="col">{t('versions.uploadedAt')}</th>
              <th scope="col">{t('versions.download')}</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={row.version}>
                <td className="cell-number">{row.version}</td>
                <td className="cell-wrap">{row.fileName}</td>
                <td className="cell-number">{formatSize(row.size)}</td>
                <td>{t(`scan.${row.scanStatus}`, { defaultValue: row.scanStatus })}</td>
                <td>{new Date(row.uploadedAt).toLocaleString(i18n.language)}</td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    disabled={row.scanStatus !== 'clean'}
                    aria-label={t('versions.downloadLabel', { version: row.version, name: row.fileName })}
                    onClick={() => void download(row.version)}
                  >
                    {t('versions.download')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
