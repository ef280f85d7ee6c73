// The one CSV writer of Keiyaku: every CSV the server answers and every CSV the CLI writes goes through it.
// Pure TypeScript with no imports (like property-values.ts), so the server, the CLI and the web may all take it.
//
// Format: UTF-8 with a BOM (Excel in Japan opens UTF-8 correctly only with it), CRLF, RFC 4180 quoting (a field
// holding a comma, a quote, CR or LF is quoted, quotes doubled). Against formula injection (CWE-1236, OWASP "CSV
// Injection") every TEXT cell that a spreadsheet would read as a formula is written with a leading `'`:
//
// - Formula starts: `=`, `+`, `-`, `@`, TAB (0x09), CR (0x0D) (OWASP's list), and the full-width `＝`, `＋`, `－`,
//   `＠`. Excel with a Japanese IME turns full-width formula characters into half-width ones when a cell is
//   entered; whether opening a CSV does the same could not be tried here, so they are guarded too: the price is a
//   `'` before the rare value that starts with one of them.
// - A text value that already starts with `'`s followed by a formula start gets one more `'`, so
//   `restoreCell(neutraliseCell(v)) === v` for every string: an import, or a hash check over the stored values,
//   gets back exactly what was stored (`'=x` is written `''=x`, `'plain` stays `'plain`).
// - Numbers are not text: a finite JS number (a negative amount, a revision) is written as it is, because a
//   spreadsheet reads `-1200` as the number it is. A numeric value that arrives as a string (`'-1200'`) IS guarded;
//   callers that want a number column type it as a number.
// - Header names are cells too (custom property names become headers) and are guarded the same way.

/** UTF-8 byte order mark. */
export const CSV_BOM = '\uFEFF';

/** A cell: text (guarded), a number (written as is when finite), or null (an empty unquoted field). */
export type CsvValue = string | number | null;

export interface CsvOptions {
  /**
   * Write the empty string as `""`, so a reader can tell it from null (an empty unquoted field). The hash-chained
   * exports need it (PostgreSQL COPY's convention); elsewhere both are an empty field.
   */
  distinguishEmpty?: boolean;
}

/** Text a spreadsheet reads as a formula, after any `'`s already in front of it. */
const FORMULA_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Puts a `'` before text a spreadsheet would read as a formula (see the rules above). */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Removes the `'` that neutraliseCell added; anything it would not have written is returned unchanged. */
export function restoreCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One field: guarded, then quoted when it holds a comma, a quote, CR or LF. */
export function csvField(value: CsvValue, options: CsvOptions = {}): string {
  if (value === null) return '';
  if (value === '') return options.distinguishEmpty ? '""' : '';
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : neutraliseCell(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(values: readonly CsvValue[], options: CsvOptions = {}): string {
  return `${values.map((value) => csvField(value, options)).join(',')}\r\n`;
}

/** A whole file: BOM, header, rows. */
export function writeCsv(
  header: readonly string[],
  rows: readonly (readonly CsvValue[])[],
  options: CsvOptions = {},
): string {
  return CSV_BOM + [header, ...rows].map((row) => csvRecord(row, options)).join('');
}

/** A file as chunks (BOM and header first, then records in chunks of about 64 KB) as the rows arrive. */
export async function* csvChunks<Row>(
  header: readonly string[],
  rows: AsyncIterable<Row>,
  fields: (row: Row) => readonly CsvValue[],
  options: CsvOptions = {},
): AsyncGenerator<string> {
  yield CSV_BOM + csvRecord(header, options);
  let batch = '';
  for await (const row of rows) {
    batch += csvRecord(fields(row), options);
    // Fewer, larger chunks: a record is small and a month of logs has many.
    if (batch.length >= 64 * 1024) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

/** Headers of a CSV download: type, the file name (ASCII) for the browser and the CLI, and no caching. */
export function csvHeaders(fileName: string): Record<string, string> {
  return {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
  };
}
