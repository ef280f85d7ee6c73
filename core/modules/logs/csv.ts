import { Readable } from 'node:stream';
import { type CsvValue, csvChunks } from '../../contract/csv.ts';

/** "2026-11-21 18:00:00" in Japan Standard Time (UTC+9, no daylight saving), for people reading the file. */
export function jstDisplay(date: Date | null): string | null {
  if (!date) return null;
  return new Date(date.getTime() + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A hash-chained export (operation log, sign record ledger) as a stream, written by the shared CSV writer with
 * '' and null kept apart. Text cells are guarded against formulas there; the hashes cover the stored values, and
 * `keiyaku log verify --file` removes the guard before recomputing them.
 */
export function chainCsvStream<Row>(
  header: readonly string[],
  rows: AsyncIterable<Row>,
  fields: (row: Row) => CsvValue[],
): Readable {
  return Readable.from(csvChunks(header, rows, fields, { distinguishEmpty: true }));
}
