import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveCompletionCertificate, saveDocumentFile } from '../../../api/download-document.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';

type Download = 'signed' | 'certificate';

/**
 * On a completed document, at the top of the page: the signed PDF (`{name}_signed.pdf`) and the completion
 * certificate (`{name}_合意締結証明書.pdf`), each saved under the name the server gives.
 */
export function CompletedDownloads({ documentId }: { documentId: string }) {
  const { t } = useTranslation('documents');
  const [pending, setPending] = useState<Download | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const run = async (which: Download) => {
    setPending(which);
    setFailure(null);
    try {
      if (which === 'signed') await saveDocumentFile(documentId);
      else await saveCompletionCertificate(documentId);
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(null);
    }
  };
  return (
    <section aria-labelledby="document-completed-title" className="panel completed-downloads">
      <h2 id="document-completed-title">{t('completed.title')}</h2>
      <p>{t('completed.body')}</p>
      <ApiErrorNotice error={failure} />
      <div className="task-actions">
        <button type="button" className="button primary" disabled={pending !== null} onClick={() => void run('signed')}>
          {pending === 'signed' ? t('completed.downloading') : t('completed.downloadSigned')}
        </button>
        <button type="button" className="button" disabled={pending !== null} onClick={() => void run('certificate')}>
          {pending === 'certificate' ? t('completed.downloading') : t('completed.downloadCertificate')}
        </button>
      </div>
    </section>
  );
}
