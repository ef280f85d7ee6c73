import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import type { ChainVerdict } from './hash-chain.ts';
import type { LogRange } from './log-range.ts';

/** Who may download logs and the ledger, and verify their chains: organization administrators. */
export const LOGS_GATE = { permission: 'logs:download' } as const;

/** Records a download in the operation log (its own transaction: the file itself changes nothing). */
export async function logDownload(
  deps: CoreDeps,
  req: RequestContext,
  principal: Principal,
  log: 'operation_logs' | 'sign_records',
  range: LogRange,
): Promise<void> {
  await deps.oplog.record(deps.knex, req, {
    action: 'logs.downloaded',
    organizationId: principal.organizationId,
    actorUserId: principal.userId,
    targetType: 'organization',
    targetId: principal.organizationId,
    details: { log, from: range.start.toISOString(), to: new Date(range.end.getTime() - 1).toISOString() },
  });
}

/** The JSON:API body of a chain verification. */
export function verificationBody(type: 'OperationLogVerification' | 'SignRecordVerification', verdict: ChainVerdict) {
  return {
    data: {
      type,
      attributes: {
        valid: verdict.firstBad === null,
        checked: verdict.checked,
        firstBadRow: verdict.firstBad ? { id: String(verdict.firstBad.id), reason: verdict.firstBad.reason } : null,
      },
    },
  };
}
