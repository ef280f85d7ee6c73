import type { BatchRow } from '../api/import-csv.ts';

/** The reasons of a failed row, in the user's language, each with the column it concerns. */
export function rowReasons(row: BatchRow, language: string): string[] {
  return row.errors.map((error) => {
    const message = language === 'en' ? error.messages.en : error.messages.ja;
    return error.column ? `${error.column}: ${message}` : message;
  });
}
