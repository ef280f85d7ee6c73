import type { Knex } from 'knex';
import type { Readable } from 'node:stream';
import type { CsvValue } from '../../contract/csv.ts';
import { chainCsvStream, jstDisplay } from '../logs/csv.ts';
import { inIdBatches } from '../logs/hash-chain.ts';
import type { LogRange } from '../logs/log-range.ts';
import type { SignRecordRow } from './ledger.ts';

/**
 * The columns of the sign record ledger CSV. Every hashed field is there exactly as hashed (instants in ISO 8601
 * UTC with milliseconds; the one-time user columns, empty for members, are hashed only when set); `signed_at_jst`, `signer_login_id` and `on_behalf_of_name` are for reading only.
 */
export const SIGN_RECORD_COLUMNS = [
  'id',
  'signed_at',
  'signed_at_jst',
  'organization_id',
  'document_id',
  'document_revision',
  'signer_user_id',
  'signer_login_id',
  'signer_name',
  'signer_email',
  'signer_one_time_user_id',
  'on_behalf_of_user_id',
  'on_behalf_of_name',
  'signature_type',
  'certificate_subject',
  'certificate_serial',
  'certificate_fingerprint',
  'timestamp_at',
  'document_hash',
  'ip_address',
  'recorded_at',
  'prev_hash',
  'hash',
] as const;

type ExportRow = SignRecordRow & { signer_login_id: string | null; on_behalf_of_name: string | null };

function fields(row: ExportRow): CsvValue[] {
  return [
    row.id,
    row.signed_at.toISOString(),
    jstDisplay(row.signed_at),
    row.organization_id,
    row.document_id,
    row.document_revision,
    row.signer_user_id,
    row.signer_login_id,
    row.signer_name,
    row.signer_email,
    row.signer_one_time_user_id,
    row.on_behalf_of_user_id,
    row.on_behalf_of_name,
    row.signature_type,
    row.certificate_subject,
    row.certificate_serial,
    row.certificate_fingerprint,
    row.timestamp_at ? row.timestamp_at.toISOString() : null,
    row.document_hash,
    row.ip_address,
    row.recorded_at.toISOString(),
    row.prev_hash,
    row.hash,
  ];
}

/** The organization's signatures made in a time range as a CSV stream, read in id batches. */
export function signRecordCsv(knex: Knex, organizationId: string, range: LogRange): Readable {
  const scope = () =>
    knex('sign_records as r')
      .leftJoin('users as s', 's.id', 'r.signer_user_id')
      .leftJoin('users as b', 'b.id', 'r.on_behalf_of_user_id')
      .where('r.organization_id', organizationId)
      .where('r.signed_at', '>=', range.start)
      .where('r.signed_at', '<', range.end)
      .select('r.*', 's.login_id as signer_login_id', 'b.name as on_behalf_of_name');
  return chainCsvStream([...SIGN_RECORD_COLUMNS], inIdBatches<ExportRow>(scope, 'r.id'), fields);
}
