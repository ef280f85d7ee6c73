import type { Knex } from 'knex';
import type { Clock } from '../../clock.ts';
import type { RequestContext } from '../../http/context.ts';
import { type ChainVerdict, chainHash, inIdBatches, lastHashLocked, verifyRows } from './hash-chain.ts';

/** One event worth keeping: who did what to which target, in which organization. */
export interface OperationLogEntry {
  action: string;
  organizationId?: string | null;
  actorUserId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
}

/** Who made a change: a user of an organization, and the request it came with (null outside one). */
export interface ChangeActor {
  userId: string;
  organizationId: string;
  req: RequestContext | null;
}

/**
 * The log function of a module whose changes an actor makes to `targetType` rows of the actor's own organization:
 * `log(deps, trx, actor, action, targetId, details)` appends one entry to that organization's chain.
 */
export function changeLogger(targetType: string) {
  return (
    deps: { oplog: OperationLog },
    trx: Knex.Transaction,
    actor: ChangeActor,
    action: string,
    targetId: string,
    details: Record<string, unknown>,
  ): Promise<void> =>
    deps.oplog.append(trx, actor.req, {
      action,
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      targetType,
      targetId,
      details,
    });
}

/** A row of operation_logs as knex returns it. */
export interface StoredRow {
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

/** The hashed content of a row: every column but id, prev_hash and hash (the CSV export carries each of them). */
export function operationLogHash(row: Omit<StoredRow, 'id' | 'hash'>): string {
  return chainHash(row.prev_hash, {
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
}

/**
 * The append-only operation log. Rows of one organization (or of the system, for events with none) form a hash
 * chain: each row's hash covers its content and the previous row's hash, so any edit or deletion shows.
 */
export class OperationLog {
  constructor(private readonly clock: Clock) {}

  /** An operation log whose appends wait for its flush (DeferredOperationLog). */
  deferred(): DeferredOperationLog {
    return new DeferredOperationLog(this.clock);
  }

  /** Appends one entry inside the caller's transaction (the chain is serialised per organization). */
  async append(trx: Knex.Transaction, req: RequestContext | null, entry: OperationLogEntry): Promise<void> {
    const organizationId = entry.organizationId ?? null;
    const prevHash = await lastHashLocked(trx, 'operation_logs', organizationId);
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
      prev_hash: prevHash,
    };
    await trx('operation_logs').insert({ ...row, details: JSON.stringify(row.details), hash: operationLogHash(row) });
  }

  /** Appends in a transaction of its own (events with no other write, such as a failed sign-in). */
  async record(knex: Knex, req: RequestContext | null, entry: OperationLogEntry): Promise<void> {
    await knex.transaction((trx) => this.append(trx, req, entry));
  }

  /** Re-computes one chain; returns the id of the first row that does not match, or null when intact. */
  async verify(knex: Knex, organizationId: string | null): Promise<{ checked: number; firstBadId: number | null }> {
    const verdict = await this.verifyChain(knex, organizationId);
    return { checked: verdict.checked, firstBadId: verdict.firstBad?.id ?? null };
  }

  /** Re-computes one chain in id order, batch by batch; names the first bad row and why it is bad. */
  verifyChain(knex: Knex, organizationId: string | null): Promise<ChainVerdict> {
    const scope = () =>
      knex('operation_logs').where(organizationId ? { organization_id: organizationId } : { organization_id: null });
    return verifyRows(inIdBatches<StoredRow>(scope), operationLogHash);
  }
}

/**
 * Appends that wait for flush(), which appends them in order (dated then). A transaction that locks many rows, the
 * CSV import, logs through one so that it takes the organization's log lock after its last row, as every writer
 * does (each logs after the rows it changes): holding the lock while locking more rows deadlocked with any writer
 * that had locked one of them and was about to log. `size` and `discard` follow a savepoint rolled back.
 */
export class DeferredOperationLog extends OperationLog {
  private readonly pending: { req: RequestContext | null; entry: OperationLogEntry }[] = [];

  override async append(_trx: Knex.Transaction, req: RequestContext | null, entry: OperationLogEntry): Promise<void> {
    this.pending.push({ req, entry });
  }

  /** Appends outside the deferred transaction go to the chain at once. */
  override record(knex: Knex, req: RequestContext | null, entry: OperationLogEntry): Promise<void> {
    return knex.transaction((trx) => super.append(trx, req, entry));
  }

  get size(): number {
    return this.pending.length;
  }

  /** Drops the entries appended since `size` was `mark`. */
  discard(mark: number): void {
    this.pending.length = mark;
  }

  async flush(trx: Knex.Transaction): Promise<void> {
    for (const { req, entry } of this.pending.splice(0)) await super.append(trx, req, entry);
  }
}
