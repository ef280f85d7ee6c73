import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { csvHeaders } from '../../contract/csv.ts';
import { parseLogRange } from '../logs/log-range.ts';
import { LOGS_GATE, logDownload, verificationBody } from '../logs/downloads.ts';
import { signRecordCsv } from './download-sign-records.ts';
import { verifySignRecords } from './ledger.ts';

/** Binds the sign record ledger download and its chain verification (same rules as the operation log). */
export function signRecordRoutes(api: ApiRouter, deps: CoreDeps): void {
  api.operation('downloadSignRecords', LOGS_GATE, async ({ principal, query, req }) => {
    const range = parseLogRange(query.from, query.to);
    await logDownload(deps, req, principal, 'sign_records', range);
    return {
      headers: csvHeaders(`sign-records_${range.label}.csv`),
      body: signRecordCsv(deps.knex, principal.organizationId, range),
    };
  });

  api.operation('verifySignRecords', LOGS_GATE, async ({ principal }) => ({
    body: verificationBody('SignRecordVerification', await verifySignRecords(deps.knex, principal.organizationId)),
  }));
}
