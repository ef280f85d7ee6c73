import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.ts';
import type { RequestContext } from '../../http/context.ts';

/** One event worth keeping: who did what to which target, in which organization. */
export interface OperationLogEntry {
  action: string;
  organizationId?: string | null;
  actorUserId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
}

interface StoredRow {
  id: number;
  organization_id: string | null;
  actor_user_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  user_agent: string | null;
  trace_id: string | null;
  details: Record<string, unknown>;
  created_at: Date;
  prev_hash: string | null;
  hash: string;
}

/** JSON with keys sorted at every level, so jsonb's reordering never changes a hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value instanceof Date ? value.toISOString() : value);
}

function rowHash(row: Omit<StoredRow, 'id' | 'hash'>): string {
  const content = canonical({
    organizationId: row.organization_id,
    actorUserId: row.actor_user_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    ip: row.ip,
    userAgent: row.user_agent,
    traceId: row.trace_id,
    details: row.details,
    createdAt: row.created_at,
  });
  return createHash('sha256')
    .update(`${row.prev_hash ?? ''}\n${content}`)
    .digest('hex');
}

/**
 * The append-only operation log. Rows of one organization (or of the system, for events with none) form a hash
 * chain: each row's hash covers its content and the previous row's hash, so any edit or deletion shows.
 */
export class OperationLog {
  constructor(private readonly clock: Clock) {}

  /** Appends one entry inside the caller's transaction (the chain is serialised per organization). */
  async append(trx: Knex.Transaction, req: RequestContext | null, entry: OperationLogEntry): Promise<void> {
    const organizationId = entry.organizationId ?? null;
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`operation_logs:${organizationId ?? 'system'}`]);
    const last = await trx('operation_logs')
      .where(organizationId ? { organization_id: organizationId } : { organization_id: null })
      .orderBy('id', 'desc')
      .first('hash');
    const row = {
      organization_id: organizationId,
      actor_user_id: entry.actorUserId ?? null,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId ?? null,
      ip: req?.ip ?? null,
      user_agent: req?.userAgent ?? null,
      trace_id: req?.traceId ?? null,
      details: entry.details ?? {},
      // Millisecond precision survives the round trip through timestamptz, so the hash can be recomputed.
      created_at: new Date(Math.floor(this.clock.now().getTime())),
      prev_hash: (last?.hash as string | undefined) ?? null,
    };
    await trx('operation_logs').insert({ ...row, details: JSON.stringify(row.details), hash: rowHash(row) });
  }

  /** Appends in a transaction of its own (events with no other write, such as a failed sign-in). */
  async record(knex: Knex, req: RequestContext | null, entry: OperationLogEntry): Promise<void> {
    await knex.transaction((trx) => this.append(trx, req, entry));
  }

  /** Re-computes one chain; returns the id of the first row that does not match, or null when intact. */
  async verify(knex: Knex, organizationId: string | null): Promise<{ checked: number; firstBadId: number | null }> {
    const rows = (await knex('operation_logs')
      .where(organizationId ? { organization_id: organizationId } : { organization_id: null })
      .orderBy('id', 'asc')) as StoredRow[];
    let previous: string | null = null;
    for (const [index, row] of rows.entries()) {
      if (row.prev_hash !== previous || rowHash(row) !== row.hash) return { checked: index, firstBadId: row.id };
      previous = row.hash;
    }
    return { checked: rows.length, firstBadId: null };
  }
}
