import { AppError } from '../../http/errors.ts';

/** One record of a CSV file: its fields and the (1-based) physical line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

const UTF8_BOM = '\uFEFF';

/**
 * Turns the bytes of an uploaded CSV into text: UTF-8 (with or without BOM) first, then Shift_JIS (what Excel in
 * Japan saves); anything that is neither is refused as a whole with BATCH_CSV_ENCODING_INVALID.
 */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new AppError('BATCH_CSV_EMPTY');
  for (const encoding of ['utf-8', 'shift_jis']) {
    try {
      const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
      // NUL never appears in a text CSV: a binary file that happens to decode is still refused.
      if (text.includes('\u0000')) break;
      return text.startsWith(UTF8_BOM) ? text.slice(1) : text;
    } catch {
      // Try the next encoding.
    }
  }
  throw new AppError('BATCH_CSV_ENCODING_INVALID');
}

/**
 * Parses RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields optionally quoted with `"` and a
 * doubled `""` inside quotes. Quoted fields may hold commas and line breaks. Blank lines are skipped. A quote left
 * open, or text right after a closing quote, refuses the file with BATCH_CSV_MALFORMED naming the line.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;
  const endRecord = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    afterQuote = false;
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (c === '\n') line += 1;
        field += c;
      }
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      afterQuote = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else if (afterQuote) {
      throw new AppError('BATCH_CSV_MALFORMED', { params: { line } });
    } else if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else {
      field += c;
    }
  }
  if (quoted) throw new AppError('BATCH_CSV_MALFORMED', { params: { line: quoteLine } });
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/** Splits a multi-value cell (`a; b;c`) into its trimmed, non-empty parts. */
export function splitList(value: string): string[] {
  return value
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
