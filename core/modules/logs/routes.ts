import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { csvHeaders } from '../../contract/csv.ts';
import { operationLogCsv } from './download-operation-logs.ts';
import { LOGS_GATE, logDownload, verificationBody } from './downloads.ts';
import { parseLogRange } from './log-range.ts';

/** Binds the operation log download and its chain verification. */
export function logRoutes(api: ApiRouter, deps: CoreDeps): void {
  api.operation('downloadOperationLogs', LOGS_GATE, async ({ principal, query, req }) => {
    const range = parseLogRange(query.from, query.to);
    await logDownload(deps, req, principal, 'operation_logs', range);
    return {
      headers: csvHeaders(`operation-logs_${range.label}.csv`),
      body: operationLogCsv(deps.knex, principal.organizationId, range),
    };
  });

  api.operation('verifyOperationLogs', LOGS_GATE, async ({ principal }) => ({
    body: verificationBody(
      'OperationLogVerification',
      await deps.oplog.verifyChain(deps.knex, principal.organizationId),
    ),
  }));
}
