import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { useExportCsv } from '../api/export-csv.ts';
import type { BatchTarget } from '../api/import-csv.ts';

/** Downloads the target's current data as CSV (optionally narrowed by a search), the file to edit and upload. */
export function ExportPanel({ target }: { target: BatchTarget }) {
  const { t } = useTranslation('batch');
  const [q, setQ] = useState('');
  const exporting = useExportCsv();
  return (
    <section aria-labelledby="batch-export-title" className="batch-panel">
      <h2 id="batch-export-title">{t('exportTitle')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          exporting.mutate({ target, q: q.trim() });
        }}
      >
        <div className="field">
          <label htmlFor="batch-export-search">{t('exportSearch')}</label>
          <input
            id="batch-export-search"
            type="search"
            value={q}
            maxLength={200}
            aria-describedby="batch-export-hint"
            onChange={(event) => setQ(event.target.value)}
          />
          <p id="batch-export-hint" className="hint">
            {t('exportHint')}
          </p>
        </div>
        <ApiErrorNotice error={exporting.error} />
        <div>
          <button type="submit" className="button" disabled={exporting.isPending}>
            {exporting.isPending ? t('exporting') : t('exportButton')}
          </button>
        </div>
      </form>
    </section>
  );
}
