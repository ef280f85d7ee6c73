import type { ContractOperation } from './document.ts';
import { takesIdempotencyKey } from './idempotency.ts';

/** Methods whose bodies the JSON, CSV and multipart readers parse (and may refuse) before any handler runs. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The statuses the shared request pipeline can answer for an operation, whatever its handler does: a failure
 * nobody planned (500), authentication and the access gates (401, 403), parameter and body validation (422),
 * a path naming nothing (404), the body readers (400 malformed, 413 too large, 415 wrong media type) and the rate
 * limits (429). The contract must declare each of them, so integrators can rely on the list of statuses.
 */
export function pipelineStatuses(op: ContractOperation, options: { rateLimited?: boolean } = {}): string[] {
  const statuses = new Set(['500']);
  if (op.authenticated) ['401', '403'].forEach((s) => statuses.add(s));
  if (op.parameters.length > 0) statuses.add('422');
  if (op.parameters.some((p) => p.in === 'path')) statuses.add('404');
  if (BODY_METHODS.has(op.method)) ['400', '413', '415', '422'].forEach((s) => statuses.add(s));
  if (options.rateLimited) statuses.add('429');
  // Idempotency-Key (core/contract/idempotency.ts): 409 while the first request runs, 422 reused or malformed.
  if (takesIdempotencyKey(op)) ['409', '422'].forEach((s) => statuses.add(s));
  return [...statuses].sort();
}

/** The pipeline statuses an operation does not declare. */
export function undeclaredPipelineStatuses(op: ContractOperation, options: { rateLimited?: boolean } = {}): string[] {
  return pipelineStatuses(op, options).filter((status) => !(status in op.responses));
}
