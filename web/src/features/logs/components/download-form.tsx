import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { type LogKind, useDownloadLog } from '../api/download-log.ts';
import { defaultRange, MAX_RANGE_DAYS, type RangeProblem, rangeProblems } from '../validation.ts';

type Field = 'from' | 'to';
const FIELD_IDS: Record<Field, string> = { from: 'logs-from', to: 'logs-to' };

/** The server's field errors of a 422 (`/from`, `/to`), by field. */
function serverProblems(error: unknown): Partial<Record<Field, RangeProblem>> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const found: Partial<Record<Field, RangeProblem>> = {};
  for (const entry of error.errors) {
    const field = entry.source?.pointer?.replace(/^\//, '');
    if (field === 'from' || field === 'to') {
      found[field] =
        entry.code === 'LOG_RANGE_INVERTED' || entry.code === 'LOG_RANGE_TOO_LONG' ? entry.code : 'invalidDate';
    }
  }
  return found;
}

/** The period form and the two download buttons; the file is saved under the server's name. */
export function DownloadForm() {
  const { t } = useTranslation(['logs', 'errors']);
  const [range, setRange] = useState(defaultRange);
  const [problems, setProblems] = useState<Partial<Record<Field, RangeProblem>>>({});
  const [attempt, setAttempt] = useState(0);
  const [pendingKind, setPendingKind] = useState<LogKind | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const downloading = useDownloadLog();

  const message = (problem: RangeProblem) =>
    problem === 'required' || problem === 'invalidDate'
      ? t(`logs:range.${problem}`)
      : t(`errors:${problem}`, { max: MAX_RANGE_DAYS });
  const errorsOf = (field: Field) => (problems[field] ? [message(problems[field])] : []);
  const items = (['from', 'to'] as const)
    .filter((field) => problems[field])
    .map((field) => ({ fieldId: FIELD_IDS[field], text: `${t(`logs:range.${field}`)}: ${message(problems[field]!)}` }));
  const serverError =
    downloading.error && Object.keys(serverProblems(downloading.error)).length === 0 ? downloading.error : null;

  const submit = (kind: LogKind) => {
    const found = rangeProblems(range.from, range.to);
    setProblems(found);
    setSaved(null);
    if (Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    setPendingKind(kind);
    downloading.mutate(
      { kind, ...range },
      {
        onSuccess: ({ fileName }) => setSaved(fileName),
        onError: (error) => {
          const fromServer = serverProblems(error);
          if (Object.keys(fromServer).length > 0) {
            setProblems(fromServer);
            setAttempt((n) => n + 1);
          }
        },
        onSettled: () => setPendingKind(null),
      },
    );
  };

  const update = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setRange((current) => ({ ...current, [field]: event.target.value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <section aria-labelledby="logs-download-title" className="logs-panel">
      <h2 id="logs-download-title">{t('logs:download.title')}</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit('operationLogs');
        }}
      >
        <ErrorSummary title={t('logs:errorSummary')} items={items} focusKey={attempt} />
        <fieldset className="logs-range">
          <legend>{t('logs:range.legend')}</legend>
          <FormField
            id={FIELD_IDS.from}
            label={t('logs:range.from')}
            type="date"
            required
            value={range.from}
            onChange={update('from')}
            errors={errorsOf('from')}
          />
          <FormField
            id={FIELD_IDS.to}
            label={t('logs:range.to')}
            type="date"
            required
            value={range.to}
            onChange={update('to')}
            errors={errorsOf('to')}
          />
          <p className="hint">{t('logs:range.hint')}</p>
        </fieldset>
        <ApiErrorNotice error={serverError} />
        <div className="logs-actions">
          {(['operationLogs', 'signRecords'] as const).map((kind) => (
            <button
              key={kind}
              type={kind === 'operationLogs' ? 'submit' : 'button'}
              className={kind === 'operationLogs' ? 'button primary' : 'button'}
              disabled={downloading.isPending}
              onClick={kind === 'operationLogs' ? undefined : () => submit(kind)}
            >
              {pendingKind === kind ? t('logs:download.downloading') : t(`logs:download.${kind}`)}
            </button>
          ))}
        </div>
        <p role="status" className="logs-status">
          {saved ? t('logs:download.done', { fileName: saved }) : ''}
        </p>
        <p className="muted">{t('logs:download.format')}</p>
      </form>
    </section>
  );
}
