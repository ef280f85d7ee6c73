import type { Knex } from 'knex';
import type { Readable } from 'node:stream';
import type { CsvValue } from '../../contract/csv.ts';
import { chainCsvStream, jstDisplay } from './csv.ts';
import { canonicalJson, inIdBatches } from './hash-chain.ts';
import type { LogRange } from './log-range.ts';
import type { StoredRow } from './operation-log.ts';

/**
 * The columns of the operation log CSV. Every hashed field is there exactly as hashed (`timestamp` is the stored
 * instant in ISO 8601 UTC with milliseconds, `details` the canonical JSON), so the file verifies offline;
 * `timestamp_jst`, `actor_login_id` and `actor_name` are for reading and are not hashed.
 */
export const OPERATION_LOG_COLUMNS = [
  'id',
  'timestamp',
  'timestamp_jst',
  'organization_id',
  'actor_user_id',
  'actor_login_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'ip',
  'user_agent',
  'trace_id',
  'details',
  'prev_hash',
  'hash',
] as const;

type ExportRow = StoredRow & { actor_login_id: string | null; actor_name: string | null };

function fields(row: ExportRow): CsvValue[] {
  return [
    row.id,
    row.created_at.toISOString(),
    jstDisplay(row.created_at),
    row.organization_id,
    row.actor_user_id,
    row.actor_login_id,
    row.actor_name,
    row.action,
    row.target_type,
    row.target_id,
    row.ip,
    row.user_agent,
    row.trace_id,
    canonicalJson(row.details),
    row.prev_hash,
    row.hash,
  ];
}

/** The organization's operation log in a time range as a CSV stream, read in id batches. */
export function operationLogCsv(knex: Knex, organizationId: string, range: LogRange): Readable {
  const scope = () =>
    knex('operation_logs as l')
      .leftJoin('users as u', 'u.id', 'l.actor_user_id')
      .where('l.organization_id', organizationId)
      .where('l.created_at', '>=', range.start)
      .where('l.created_at', '<', range.end)
      .select('l.*', 'u.login_id as actor_login_id', 'u.name as actor_name');
  return chainCsvStream([...OPERATION_LOG_COLUMNS], inIdBatches<ExportRow>(scope, 'l.id'), fields);
}
