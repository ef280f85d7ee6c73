import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice, useErrorText } from '../../../components/api-error-notice.tsx';
import { reuploadDocument, useUpload } from '../api/upload-document.ts';
import { checkDocumentFile, type FileProblem } from '../file-checks.ts';
import { FileDrop } from './file-drop.tsx';

/** A new version of the document (remanded, or stopped by a malicious verdict); the old versions are kept. */
export function ReuploadPanel({ documentId, lockVersion }: { documentId: string; lockVersion: number }) {
  const { t } = useTranslation(['documents', 'errors']);
  const errorText = useErrorText();
  const upload = useUpload(reuploadDocument);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<FileProblem | ApiError | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const choose = async (chosen: File | null) => {
    const found = await checkDocumentFile(chosen);
    setProblem(found);
    setFile(found ? null : chosen);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!file) return setProblem(problem ?? { code: 'FILE_REQUIRED' });
    try {
      await upload.run(documentId, file, lockVersion);
      toast.success(t('reupload.done'));
      setFile(null);
    } catch (error) {
      if (error instanceof ApiError && error.code.startsWith('FILE_')) setProblem(error);
      else setFailure(error);
    }
  };
  const message = (found: FileProblem | ApiError) =>
    found instanceof ApiError ? errorText(found) : t(`errors:${found.code}`, 'params' in found ? found.params : {});

  return (
    <section aria-labelledby="document-reupload-title" className="panel">
      <h2 id="document-reupload-title">{t('reupload.title')}</h2>
      <p className="hint">{t('reupload.hint')}</p>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <ApiErrorNotice error={failure} />
        <FileDrop
          label={t('upload.fileLabel')}
          hint={t('upload.fileHint')}
          file={file}
          errors={problem ? [message(problem)] : []}
          onFile={(chosen) => void choose(chosen)}
        />
        {upload.progress !== null && (
          <progress className="upload-progress" aria-label={t('upload.progress')} max={1} value={upload.progress} />
        )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={upload.pending}>
            {upload.pending ? t('upload.sending') : t('reupload.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
