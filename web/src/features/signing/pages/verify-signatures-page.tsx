import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useVerifySignatures } from '../api/verify-signatures.ts';
import { SignatureReportView } from '../components/signature-report.tsx';
import '../signing.css';

registerCatalogue('signing', { ja, en });

/** The most the server reads: 35 MB, a 30 MB document with the signatures this service adds to it. */
const MAX_BYTES = 35 * 1024 * 1024;

/** Any PDF, signed here or elsewhere, checked by the server without being stored. */
export function VerifySignaturesPage() {
  const { t } = useTranslation(['signing', 'common', 'errors']);
  const verify = useVerifySignatures();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    document.title = `${t('verify.title')} | ${t('common:appName')}`;
  }, [t]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem(t('verify.fileRequired'));
    if (file.size > MAX_BYTES) return setProblem(t('errors:FILE_TOO_LARGE', { maxMb: 35 }));
    setProblem(null);
    verify.mutate(file);
  };

  return (
    <section aria-labelledby="verify-title" className="admin-screen sign-screen">
      <h1 id="verify-title">{t('verify.title')}</h1>
      <p>{t('verify.intro')}</p>
      <form className="panel admin-form" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor="verify-file">{t('verify.file')}</label>
          <p id="verify-file-hint" className="hint">
            {t('verify.fileHint')}
          </p>
          <input
            id="verify-file"
            type="file"
            accept="application/pdf,.pdf"
            aria-describedby={problem ? 'verify-file-hint verify-file-error' : 'verify-file-hint'}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblem(null);
              verify.reset();
            }}
          />
          {problem && (
            <div id="verify-file-error" className="field-error">
              <p>{problem}</p>
            </div>
          )}
        </div>
        <ApiErrorNotice error={verify.error} />
        <FormActions pending={verify.isPending} submitLabel={t('verify.submit')} sendingLabel={t('verify.sending')} />
      </form>
      {verify.data && <SignatureReportView report={verify.data} />}
    </section>
  );
}
