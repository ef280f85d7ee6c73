import type { Knex } from 'knex';
import type { Clock } from '../../clock.ts';
import type { ContractOperation } from '../../contract/document.ts';
import type { RequestContext } from '../../http/context.ts';
import type { OperationLog } from '../logs/operation-log.ts';

/** last_used_at / last_used_ip are written at most this often per key; the operation log gets every use. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Records one request a key authenticated: an `api_key.used` entry (actor the service user, target the key, with
 * operationId, method and status) and, at most once a minute, the key's last use. Both go in one short
 * transaction after the response is decided, so the hash chain's lock is held only for the append itself.
 */
export function apiKeyUseRecorder(knex: Knex, clock: Clock, oplog: OperationLog) {
  return async (req: RequestContext, op: Pick<ContractOperation, 'operationId' | 'method'>, status: number) => {
    const principal = req.principal;
    const key = principal?.apiKey;
    if (!principal || !key) return;
    const now = clock.now();
    await knex.transaction(async (trx) => {
      await oplog.append(trx, req, {
        action: 'api_key.used',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'api_key',
        targetId: key.id,
        details: { operationId: op.operationId, method: op.method, status },
      });
      if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
        await trx('api_keys').where({ id: key.id }).update({ last_used_at: now, last_used_ip: req.ip });
      }
    });
  };
}
