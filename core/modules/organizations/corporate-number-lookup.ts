import type { Logger } from 'pino';
import type { Config } from '../../config.ts';

/** What the national corporate number service says about one number. */
export type CorporateLookupResult =
  | { status: 'found'; name: string; nameEn: string | null; address: string; updatedOn: string | null }
  | { status: 'notFound' }
  | { status: 'unavailable'; reason: string }
  | { status: 'disabled' };

/** Splits RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

// Columns of the Web-API's CSV record (version 4): the ones a lookup shows.
const COLUMN = {
  corporateNumber: 1,
  updateDate: 4,
  name: 6,
  prefectureName: 9,
  cityName: 10,
  streetNumber: 11,
  latest: 23,
  enName: 24,
} as const;

/**
 * Reads a Web-API CSV answer: a header line (lastUpdateDate, count, divideNumber, divideSize) and one record per
 * row. Only the latest record of the asked number counts (with history=0 there is one).
 */
export function parseLookupCsv(text: string, number: string): CorporateLookupResult {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  const header = rows[0];
  if (!header || header.length < 2 || !/^\d+$/.test(header[1]!.trim())) {
    return { status: 'unavailable', reason: 'unexpected answer' };
  }
  const records = rows.slice(1).filter((r) => r[COLUMN.corporateNumber] === number);
  const record = records.find((r) => r[COLUMN.latest] === '1') ?? records.at(-1);
  if (!record) return { status: 'notFound' };
  const address = [COLUMN.prefectureName, COLUMN.cityName, COLUMN.streetNumber].map((i) => record[i] ?? '').join('');
  return {
    status: 'found',
    name: record[COLUMN.name] ?? '',
    nameEn: record[COLUMN.enName] || null,
    address,
    updatedOn: record[COLUMN.updateDate] || null,
  };
}

/** Decodes the body by its declared charset: type=02 answers UTF-8, type=01 Shift_JIS. */
export function decodeBody(bytes: ArrayBuffer | Uint8Array, contentType: string | null): string {
  const charset = /charset=([^;]+)/i
    .exec(contentType ?? '')?.[1]
    ?.trim()
    .toLowerCase();
  const sjis = charset && ['shift_jis', 'shift-jis', 'sjis', 'windows-31j', 'cp932', 'ms932'].includes(charset);
  return new TextDecoder(sjis ? 'shift_jis' : 'utf-8').decode(bytes);
}

/**
 * Looks a number up through the configured Web-API endpoint. Never throws: a timeout, an error status, an
 * unreachable host or an unreadable answer is `unavailable`, and an unset URL is `disabled`.
 */
export async function lookupCorporateNumber(
  config: Config['corporateNumberApi'],
  number: string,
  log: Logger,
): Promise<CorporateLookupResult> {
  if (!config.url) return { status: 'disabled' };
  const url = new URL(`${config.url.replace(/\/$/, '')}/num`);
  url.search = new URLSearchParams({ id: config.appId, number, type: '02', history: '0' }).toString();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(config.timeoutMs) });
    if (!response.ok) {
      log.warn({ status: response.status }, 'corporate number lookup failed');
      return { status: 'unavailable', reason: `HTTP ${response.status}` };
    }
    const text = decodeBody(await response.arrayBuffer(), response.headers.get('content-type'));
    return parseLookupCsv(text, number);
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable';
    log.warn({ err: error, reason }, 'corporate number lookup failed');
    return { status: 'unavailable', reason };
  }
}
