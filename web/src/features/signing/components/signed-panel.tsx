import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveDocumentFile } from '../../../api/download-document.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';

/** After the signature: the signed PDF (the document's newest version) to download, and its verification report. */
export function SignedPanel({ documentId }: { documentId: string }) {
  const { t } = useTranslation('signing');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const download = async () => {
    setPending(true);
    setFailure(null);
    try {
      await saveDocumentFile(documentId);
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(false);
    }
  };
  return (
    <section aria-labelledby="signed-title" className="panel signed-panel">
      <h2 id="signed-title">{t('done.title')}</h2>
      <p role="status" className="success">
        {t('done.body')}
      </p>
      <ApiErrorNotice error={failure} />
      <div className="task-actions">
        <button type="button" className="button primary" disabled={pending} onClick={() => void download()}>
          {pending ? t('done.downloading') : t('done.download')}
        </button>
        <Link className="button" to="/organizations/documents/$documentId/signatures" params={{ documentId }}>
          {t('done.report')}
        </Link>
        <Link className="button" to="/organizations/documents/$documentId" params={{ documentId }}>
          {t('done.backToDocument')}
        </Link>
      </div>
    </section>
  );
}
