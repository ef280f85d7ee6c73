import { useTranslation } from 'react-i18next';
import { useDocumentFile } from '../../../api/download-document.ts';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { PdfViewer } from './pdf-viewer.tsx';

/**
 * The current version's preview. While the malware scan runs the download is refused (409
 * DOCUMENT_BEING_SCANNED): the notice says so, the query asks again every few seconds, and Retry asks at once.
 */
export function DocumentPreview(props: {
  documentId: string;
  version: number | undefined;
  title: string;
  scanPending: boolean;
}) {
  const { t } = useTranslation('documents');
  const file = useDocumentFile(props.documentId, props.version, !props.scanPending);
  const reason = file.error ?? file.failureReason;
  const scanning = props.scanPending || (reason instanceof ApiError && reason.code === 'DOCUMENT_BEING_SCANNED');
  if (scanning) {
    return (
      <div role="status" className="notice scan-notice">
        <p>{t('scan.beingScanned')}</p>
        <button type="button" className="button small" onClick={() => void file.refetch()}>
          {t('scan.retry')}
        </button>
      </div>
    );
  }
  if (file.error) return <ApiErrorNotice error={file.error} />;
  if (!file.data) {
    return (
      <p role="status" className="muted">
        {t('viewer.loading')}
      </p>
    );
  }
  return <PdfViewer file={file.data.blob} title={props.title} />;
}
