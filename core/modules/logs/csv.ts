import { Readable } from 'node:stream';

/** UTF-8 byte order mark: Excel opens a UTF-8 CSV with Japanese text correctly only with it. */
export const CSV_BOM = '\uFEFF';

/** A cell value: null is written as an empty unquoted field, '' as `""` (PostgreSQL COPY's CSV convention). */
export type CsvValue = string | number | null;

/** One RFC 4180 field: quoted when it holds a comma, a quote (doubled), CR or LF, or is the empty string. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = String(value);
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(values: CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** "2026-11-21 18:00:00" in Japan Standard Time (UTC+9, no daylight saving), for people reading the file. */
export function jstDisplay(date: Date | null): string | null {
  if (!date) return null;
  return new Date(date.getTime() + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A CSV file as a stream: BOM, header, then one record per row as the rows arrive. */
export function csvStream<Row>(header: string[], rows: AsyncIterable<Row>, fields: (row: Row) => CsvValue[]): Readable {
  return Readable.from(
    (async function* () {
      yield CSV_BOM + csvRecord(header);
      let batch = '';
      for await (const row of rows) {
        batch += csvRecord(fields(row));
        // Fewer, larger chunks: a record is small and a month of logs has many.
        if (batch.length >= 64 * 1024) {
          yield batch;
          batch = '';
        }
      }
      if (batch) yield batch;
    })(),
  );
}

/** Headers of a CSV download: type, and the file name (ASCII) for the browser and the CLI. */
export function csvHeaders(fileName: string): Record<string, string> {
  return {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
  };
}
