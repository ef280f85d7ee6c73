import { readFileSync } from 'node:fs';
import type { components } from '../../core/contract/api.gen.ts';
import { csvRecord, restoreCell } from '../../core/contract/csv.ts';
import { AppError, errorMessage } from '../../core/http/errors.ts';
import { type CsvRecord, decodeCsv, parseCsv } from '../../core/modules/batch/csv.ts';
import { type ApiSession, CliError, EXIT, type Locale, unwrap } from '../api.ts';
import type { CliOutput } from '../command.ts';

type BatchImport = components['schemas']['BatchImportResult']['data']['attributes'];
type BatchRow = components['schemas']['BatchRowResult'];
export type BatchTarget = 'users' | 'groups';

/** Rows per request: well under the API's 1,000, so each request (one transaction) stays short. */
export const DEFAULT_CHUNK_ROWS = 500;

/** The most rows the API takes in one request (MAX_IMPORT_ROWS on the server). */
export const MAX_CHUNK_ROWS = 1000;

/** The column that names a row (a value on two rows fails every row after the first). */
const KEY_COLUMN: Record<BatchTarget, string> = { users: 'loginid', groups: 'name' };

/** Where progress goes: a redrawn bar on a terminal, plain lines otherwise (logs, CI). */
export interface Progress {
  update(done: number, total: number): void;
  finish(): void;
}

export function progressReporter(output: CliOutput, isTty: boolean, label: string): Progress {
  let drawn = false;
  return {
    update(done, total) {
      const ratio = total === 0 ? 1 : done / total;
      if (isTty) {
        const width = 30;
        const filled = Math.round(ratio * width);
        const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
        output.err(`\r${label} [${bar}] ${done}/${total} rows ${Math.floor(ratio * 100)}%`);
        drawn = true;
      } else {
        output.err(`${label}: ${done}/${total} rows\n`);
      }
    },
    finish() {
      if (drawn) output.err('\n');
    },
  };
}

/**
 * One chunk of the file as CSV, written by the shared writer. Each cell is sent as the server reads it (trimmed,
 * a formula guard removed) and then guarded again by the writer, so the server gets the same values as from the
 * file itself and the chunk is as safe to open as any CSV we write.
 */
function chunkText(header: CsvRecord, records: CsvRecord[]): string {
  return [header, ...records]
    .map((record) => csvRecord(record.fields.map((cell) => restoreCell(cell.trim()))))
    .join('');
}

async function send(session: ApiSession, target: BatchTarget, body: string | Buffer, dryRun: boolean) {
  const init = {
    params: { query: { dryRun } },
    body: body as string,
    bodySerializer: (value: unknown) => value as string,
    headers: { 'Content-Type': 'text/csv' },
  };
  const result =
    target === 'users'
      ? await session.client.POST('/batch/users', init)
      : await session.client.POST('/batch/groups', init);
  return unwrap(result).data.attributes;
}

/** A row the CLI fails itself: its key already appeared on an earlier line (possibly in another chunk). */
function duplicateRow(
  record: CsvRecord,
  operation: string,
  key: string,
  keyColumn: string,
  firstLine: number,
): BatchRow {
  const params = { line: firstLine, column: keyColumn };
  return {
    line: record.line,
    operation,
    key,
    outcome: 'failed',
    errors: [
      {
        code: 'BATCH_DUPLICATE_IN_FILE',
        column: keyColumn,
        messages: {
          ja: errorMessage('BATCH_DUPLICATE_IN_FILE', 'ja', params),
          en: errorMessage('BATCH_DUPLICATE_IN_FILE', 'en', params),
        },
      },
    ],
  };
}

/**
 * Imports a CSV file in chunks of `chunkRows` data rows (each chunk one request with the header row), reporting
 * progress after each. Lines in the result are the file's own. A key (login ID, group name) repeated anywhere in the
 * file fails on every row after the first, also across chunks. A file the server refuses as a whole (bad header,
 * encoding, empty) stops the run with the server's code.
 */
export async function importCsvFile(
  session: ApiSession,
  target: BatchTarget,
  file: string,
  options: { dryRun: boolean; chunkRows: number; progress: Progress },
): Promise<BatchImport> {
  const bytes = readFileSync(file);
  let records: CsvRecord[];
  try {
    records = parseCsv(decodeCsv(bytes));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Let the server refuse it, in the user's language and with its code.
    await send(session, target, bytes, options.dryRun);
    throw error;
  }
  const [header, ...data] = records;
  if (!header || data.length === 0) {
    await send(session, target, bytes, options.dryRun);
    throw new CliError('BATCH_CSV_EMPTY', EXIT.apiError, 'BATCH_CSV_EMPTY');
  }
  const keyIndex = header.fields.findIndex((name) => name.trim().toLowerCase() === KEY_COLUMN[target]);
  const operationIndex = header.fields.findIndex((name) => name.trim().toLowerCase() === 'operation');
  const keyColumn = keyIndex >= 0 ? header.fields[keyIndex]!.trim() : KEY_COLUMN[target];
  const firstLine = new Map<string, number>();
  const rows: (BatchRow | null)[] = [];
  const toSend: { index: number; record: CsvRecord }[] = [];
  data.forEach((record, index) => {
    const key = keyIndex >= 0 ? (record.fields[keyIndex] ?? '').trim() : '';
    const seen = firstLine.get(key);
    if (key !== '' && seen !== undefined) {
      const operation = (record.fields[operationIndex] ?? '').trim();
      rows.push(duplicateRow(record, operation, key, keyColumn, seen));
      return;
    }
    if (key !== '') firstLine.set(key, record.line);
    rows.push(null);
    toSend.push({ index, record });
  });
  const counts = {
    total: data.length,
    added: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    failed: data.length - toSend.length,
  };
  options.progress.update(0, data.length);
  let done = counts.failed;
  for (let start = 0; start < toSend.length; start += options.chunkRows) {
    const chunk = toSend.slice(start, start + options.chunkRows);
    let result: BatchImport;
    try {
      result = await send(
        session,
        target,
        chunkText(
          header,
          chunk.map((c) => c.record),
        ),
        options.dryRun,
      );
    } catch (error) {
      options.progress.finish();
      if (start === 0 || !(error instanceof CliError)) throw error;
      const first = chunk[0]!.record.line;
      throw new CliError(`${error.message}\nstopped at line ${first}: the rows before it were sent`, error.exitCode);
    }
    result.rows.forEach((row, i) => {
      const entry = chunk[i];
      if (entry) rows[entry.index] = { ...row, line: entry.record.line };
    });
    for (const key of ['added', 'updated', 'deleted', 'unchanged', 'failed'] as const)
      counts[key] += result.counts[key];
    done += chunk.length;
    options.progress.update(done, data.length);
  }
  options.progress.finish();
  return { target, dryRun: options.dryRun, counts, rows: rows.filter((row): row is BatchRow => row !== null) };
}

/** The human-readable report: counts, then one line per failed row with its reasons in the user's language. */
export function formatImport(result: BatchImport, locale: Locale): string {
  const { counts } = result;
  const verb = result.dryRun ? 'Preview (nothing written)' : 'Imported';
  const lines = [
    `${verb}: ${counts.total} rows, ${counts.added} added, ${counts.updated} updated, ${counts.deleted} deleted, ` +
      `${counts.unchanged} unchanged, ${counts.failed} failed`,
  ];
  for (const row of result.rows.filter((r) => r.outcome === 'failed')) {
    const reasons = row.errors.map((e) => `${e.code}${e.column ? ` [${e.column}]` : ''}: ${e.messages[locale]}`);
    lines.push(`line ${row.line} (${row.key || '-'}): ${reasons.join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The error a run with failed rows ends with (exit 1), in the user's language. */
export function failedRowsError(locale: Locale): CliError {
  return new CliError(
    `BATCH_ROWS_FAILED: ${errorMessage('BATCH_ROWS_FAILED', locale)}`,
    EXIT.apiError,
    'BATCH_ROWS_FAILED',
  );
}
