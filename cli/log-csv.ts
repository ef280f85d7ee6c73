import { createHash } from 'node:crypto';

/**
 * Offline verification of a downloaded operation log or sign record CSV, by the rules openapi.yaml states for
 * `downloadOperationLogs` and `downloadSignRecords`. Written from the contract on purpose (the CLI imports no
 * server code): a file checks out only if an independent implementation agrees with the server's hashes.
 */

/** A cell: null for an empty unquoted field, a string otherwise (`""` is the empty string). */
export type CsvCell = string | null;

/** Parses RFC 4180 text (BOM, CRLF or LF, quoted fields with doubled quotes); returns records with line numbers. */
export function parseCsv(text: string): { line: number; cells: CsvCell[] }[] {
  const records: { line: number; cells: CsvCell[] }[] = [];
  let cells: CsvCell[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  let line = 1;
  let recordLine = 1;
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endCell = () => {
    cells.push(cell === '' && !wasQuoted ? null : cell);
    cell = '';
    wasQuoted = false;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') {
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') endCell();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      endCell();
      records.push({ line: recordLine, cells });
      cells = [];
      line++;
      recordLine = line;
    } else cell += c;
  }
  if (quoted) throw new Error(`line ${recordLine}: a quoted field is not closed`);
  if (cell !== '' || wasQuoted || cells.length > 0) {
    endCell();
    records.push({ line: recordLine, cells });
  }
  return records;
}

/** JSON with keys sorted at every level, as the server hashes it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Undoes the export's formula guard (the contract's CSV rules): the server writes a `'` before a text cell that
 * starts, after any `'`s, with `=`, `+`, `-`, `@`, TAB, CR or a full-width `＝＋－＠`. The hashes cover the stored
 * values, so the guard comes off before hashing; any other cell is the stored value itself.
 */
export function unguardCell(cell: string): string {
  return /^''*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) ? cell.slice(1) : cell;
}

/** `optional`: a column added later, hashed only when set (absent from older files). */
type Kind = 'text' | 'json' | 'number' | 'optional';

/** Hashed fields of each file kind: content key, CSV column, how the cell is read. */
const LAYOUTS = {
  'operation log': {
    marker: 'action',
    fields: [
      ['organizationId', 'organization_id', 'text'],
      ['actorUserId', 'actor_user_id', 'text'],
      ['action', 'action', 'text'],
      ['targetType', 'target_type', 'text'],
      ['targetId', 'target_id', 'text'],
      ['ip', 'ip', 'text'],
      ['userAgent', 'user_agent', 'text'],
      ['traceId', 'trace_id', 'text'],
      ['details', 'details', 'json'],
      ['createdAt', 'timestamp', 'text'],
    ],
  },
  'sign record ledger': {
    marker: 'document_hash',
    fields: [
      ['organizationId', 'organization_id', 'text'],
      ['documentId', 'document_id', 'text'],
      ['documentRevision', 'document_revision', 'number'],
      ['signerUserId', 'signer_user_id', 'text'],
      ['signerName', 'signer_name', 'text'],
      ['signerEmail', 'signer_email', 'optional'],
      ['signerOneTimeUserId', 'signer_one_time_user_id', 'optional'],
      ['onBehalfOfUserId', 'on_behalf_of_user_id', 'text'],
      ['signatureType', 'signature_type', 'text'],
      ['certificateSubject', 'certificate_subject', 'text'],
      ['certificateSerial', 'certificate_serial', 'text'],
      ['certificateFingerprint', 'certificate_fingerprint', 'text'],
      ['signedAt', 'signed_at', 'text'],
      ['timestampAt', 'timestamp_at', 'text'],
      ['documentHash', 'document_hash', 'text'],
      ['ipAddress', 'ip_address', 'text'],
      ['recordedAt', 'recorded_at', 'text'],
    ],
  },
} satisfies Record<string, { marker: string; fields: [string, string, Kind][] }>;

export type FileKind = keyof typeof LAYOUTS;
export type BadRowReason = 'hash_mismatch' | 'broken_link' | 'malformed';

export interface FileVerdict {
  kind: FileKind;
  checked: number;
  firstBad: { id: string; line: number; reason: BadRowReason; detail: string } | null;
}

function read(stored: CsvCell | undefined, kind: Kind): unknown {
  if (stored === null || stored === undefined) return kind === 'optional' ? undefined : null;
  const cell = unguardCell(stored);
  if (kind === 'json') return JSON.parse(cell);
  if (kind === 'number') {
    const n = Number(cell);
    if (!Number.isFinite(n)) throw new Error(`not a number: ${cell}`);
    return n;
  }
  return cell;
}

/**
 * Recomputes every row's hash from its columns and its prev_hash and checks each row links to the one before.
 * The first row's prev_hash points before the exported range, so only its own hash is checked.
 */
export function verifyCsv(text: string): FileVerdict {
  const [header, ...rows] = parseCsv(text);
  const names = header?.cells ?? [];
  const kind = (Object.keys(LAYOUTS) as FileKind[]).find((k) => names.includes(LAYOUTS[k].marker));
  if (!kind) throw new Error('not an operation log or sign record CSV (unknown header)');
  const column = (name: string, optional = false) => {
    const index = names.indexOf(name);
    if (index < 0 && !optional) throw new Error(`the header lacks the column ${name}`);
    return index;
  };
  const layout = LAYOUTS[kind].fields.map(
    ([key, name, type]) => [key, column(name, type === 'optional'), type as Kind] as const,
  );
  const [idAt, prevAt, hashAt] = [column('id'), column('prev_hash'), column('hash')];
  let previous: CsvCell | undefined;
  let checked = 0;
  for (const { line, cells } of rows) {
    const id = cells[idAt] ?? '?';
    const bad = (reason: BadRowReason, detail: string): FileVerdict => ({
      kind,
      checked,
      firstBad: { id, line, reason, detail },
    });
    if (cells.length !== names.length)
      return bad('malformed', `${cells.length} columns, the header has ${names.length}`);
    const prevHash = cells[prevAt] ?? null;
    if (previous !== undefined && prevHash !== previous) {
      return bad('broken_link', 'its prev_hash is not the hash of the row before it (a row was removed or added)');
    }
    let content: Record<string, unknown>;
    try {
      content = Object.fromEntries(
        layout.map(([key, index, type]) => [key, read(index < 0 ? undefined : cells[index], type)]),
      );
    } catch (error) {
      return bad('malformed', (error as Error).message);
    }
    const hash = createHash('sha256')
      .update(`${prevHash ?? ''}\n${canonicalJson(content)}`)
      .digest('hex');
    if (hash !== cells[hashAt]) return bad('hash_mismatch', 'its columns no longer give its hash (the row was edited)');
    previous = cells[hashAt]!;
    checked += 1;
  }
  return { kind, checked, firstBad: null };
}
