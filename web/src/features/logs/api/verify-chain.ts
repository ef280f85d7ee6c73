import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { LogKind } from './download-log.ts';

/**
 * GET /operation-logs/verification or /sign-records/verification (verifyOperationLogs / verifySignRecords):
 * re-computes the organization's whole hash chain; `firstBadRow` names the first row that breaks it.
 */
export async function verifyChain(kind: LogKind) {
  const result =
    kind === 'operationLogs'
      ? await api.GET('/operation-logs/verification')
      : await api.GET('/sign-records/verification');
  return unwrap(result).data.attributes;
}

export type ChainVerdict = Awaited<ReturnType<typeof verifyChain>>;

/** A button-triggered check (it reads every row, so it never runs on its own). */
export function useVerifyChain() {
  return useMutation({ mutationFn: verifyChain });
}
