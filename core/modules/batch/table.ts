import { AppError } from '../../http/errors.ts';
import { restoreCell } from '../../contract/csv.ts';
import { decodeCsv, parseCsv } from './csv.ts';

/** The most data rows one import request may carry (the CLI sends 500 a request). */
export const MAX_IMPORT_ROWS = 1_000;

/** The most items one CSV export may hold (the spec's "CSV export at most 1,000 items"). */
export const MAX_EXPORT_ITEMS = 1_000;

/** The columns an import knows: all of them allowed, `required` ones must be in the header. */
export interface TableSpec {
  columns: readonly string[];
  required: readonly string[];
}

/** One data row: its line, its cells by column (only the header's columns), or why it cannot be read. */
export interface TableRow {
  line: number;
  cells: Record<string, string>;
  /** The row has more or fewer fields than the header. */
  fieldCount?: { actual: number; expected: number };
}

/** A decoded, parsed CSV file whose header has been checked. */
export interface Table {
  columns: Set<string>;
  rows: TableRow[];
}

/**
 * Decodes and parses an uploaded CSV and checks its header row: every column known, none twice, the required ones
 * present (header names match case-insensitively and ignore surrounding blanks). Refuses the whole file with its
 * own code when it is empty, undecodable, malformed, badly headed or longer than MAX_IMPORT_ROWS.
 */
export function readTable(bytes: Uint8Array, spec: TableSpec): Table {
  const records = parseCsv(decodeCsv(bytes));
  const [header, ...data] = records;
  if (!header || data.length === 0) throw new AppError('BATCH_CSV_EMPTY');
  const known = new Map(spec.columns.map((column) => [column.toLowerCase(), column]));
  const names: string[] = [];
  for (const raw of header.fields) {
    const name = known.get(raw.trim().toLowerCase());
    if (!name || names.includes(name)) {
      throw new AppError('BATCH_CSV_HEADER_INVALID', { params: { column: raw.trim() || '(empty)' } });
    }
    names.push(name);
  }
  const missing = spec.required.find((column) => !names.includes(column));
  if (missing) throw new AppError('BATCH_CSV_HEADER_INVALID', { params: { column: missing } });
  if (data.length > MAX_IMPORT_ROWS)
    throw new AppError('BATCH_CSV_TOO_MANY_ROWS', { params: { max: MAX_IMPORT_ROWS } });
  const rows = data.map((record): TableRow => {
    const cells = Object.fromEntries(names.map((name, i) => [name, restoreCell((record.fields[i] ?? '').trim())]));
    const row: TableRow = { line: record.line, cells };
    if (record.fields.length !== names.length) {
      row.fieldCount = { actual: record.fields.length, expected: names.length };
    }
    return row;
  });
  return { columns: new Set(names), rows };
}
