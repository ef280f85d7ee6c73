import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type BatchImport, type BatchTarget, useImportCsv } from '../api/import-csv.ts';
import { ExportPanel } from '../components/export-panel.tsx';
import { RowTable } from '../components/row-table.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('batch', { ja, en });

const TARGETS: BatchTarget[] = ['users', 'groups'];

/** Settings > CSV batch editing: download the data, upload an edited file, preview it, apply it, see the result. */
export function BatchPage() {
  const { t } = useTranslation(['batch', 'errors']);
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<BatchTarget>('users');
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [missingFile, setMissingFile] = useState(false);
  const [preview, setPreview] = useState<BatchImport | null>(null);
  const [result, setResult] = useState<BatchImport | null>(null);
  const [onlyFailed, setOnlyFailed] = useState(false);
  const importing = useImportCsv();
  const fileHintId = useId();

  const reset = () => {
    setPreview(null);
    setResult(null);
    setOnlyFailed(false);
    importing.reset();
  };
  const startOver = () => {
    reset();
    setFile(null);
    setFileKey((key) => key + 1);
  };
  const runPreview = () => {
    if (!file) {
      setMissingFile(true);
      return;
    }
    reset();
    importing.mutate({ target, file, dryRun: true }, { onSuccess: setPreview });
  };
  const apply = () => {
    if (!file) return;
    importing.mutate(
      { target, file, dryRun: false },
      {
        onSuccess: (applied) => {
          setPreview(null);
          setResult(applied);
          void queryClient.invalidateQueries({ queryKey: [target] });
        },
      },
    );
  };
  const changes = preview ? preview.counts.added + preview.counts.updated + preview.counts.deleted : 0;
  const previewRows = preview ? preview.rows.filter((row) => !onlyFailed || row.outcome === 'failed') : [];

  return (
    <section aria-labelledby="batch-title" className="batch">
      <h1 id="batch-title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>

      <fieldset className="batch-targets">
        <legend>{t('targetLegend')}</legend>
        {TARGETS.map((option) => (
          <label key={option} className="checkbox">
            <input
              type="radio"
              name="batch-target"
              value={option}
              checked={target === option}
              onChange={() => {
                setTarget(option);
                startOver();
              }}
            />
            <span>{t(`targets.${option}`)}</span>
          </label>
        ))}
      </fieldset>

      <details className="batch-format">
        <summary>{t('formatTitle')}</summary>
        <p>{t('format.common')}</p>
        <p>{t(`format.${target}`)}</p>
      </details>

      <ExportPanel key={target} target={target} />

      <section aria-labelledby="batch-import-title" className="batch-panel">
        <h2 id="batch-import-title">{t('importTitle')}</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            runPreview();
          }}
        >
          <div className="field">
            <label htmlFor="batch-file">{t('fileLabel')}</label>
            <input
              key={fileKey}
              id="batch-file"
              type="file"
              accept=".csv,text/csv"
              aria-describedby={fileHintId}
              aria-invalid={missingFile || undefined}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setMissingFile(false);
                reset();
              }}
            />
            <p id={fileHintId} className="hint">
              {t('fileHint')}
            </p>
            {missingFile && <p className="field-error">{t('chooseFile')}</p>}
          </div>
          <ApiErrorNotice error={importing.error} />
          <div>
            <button type="submit" className="button" disabled={importing.isPending}>
              {importing.isPending && !preview ? t('previewing') : t('previewButton')}
            </button>
          </div>
        </form>
      </section>

      {preview && (
        <section aria-labelledby="batch-preview-title" className="batch-panel">
          <h2 id="batch-preview-title">{t('previewTitle')}</h2>
          <p role="status">{t('previewSummary', preview.counts)}</p>
          {preview.counts.failed > 0 && <p className="notice">{t('previewFailedNote')}</p>}
          <label className="checkbox">
            <input type="checkbox" checked={onlyFailed} onChange={(event) => setOnlyFailed(event.target.checked)} />
            <span>{t('onlyFailed')}</span>
          </label>
          <RowTable rows={previewRows} applied={false} label={t('tableLabel')} />
          <div className="batch-actions">
            <button
              type="button"
              className="button primary"
              disabled={importing.isPending || changes === 0}
              onClick={apply}
            >
              {importing.isPending ? t('applying') : t('applyButton')}
            </button>
          </div>
        </section>
      )}

      {result && (
        <section aria-labelledby="batch-result-title" className="batch-panel">
          <h2 id="batch-result-title">{t('resultTitle')}</h2>
          <p role="status">{t('resultSummary', result.counts)}</p>
          {result.counts.failed > 0 ? (
            <>
              <p role="alert" className="form-error">
                {t('errors:BATCH_ROWS_FAILED')}
              </p>
              <h3>{t('failedRowsTitle')}</h3>
              <RowTable
                rows={result.rows.filter((row) => row.outcome === 'failed')}
                applied
                label={t('failedRowsTitle')}
              />
            </>
          ) : (
            <p className="success">{t('resultAllDone')}</p>
          )}
          <div className="batch-actions">
            <button type="button" className="button" onClick={startOver}>
              {t('startOver')}
            </button>
          </div>
        </section>
      )}
    </section>
  );
}
