import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../http/errors.ts';

/**
 * 401 unless the request's bearer token is `secret` (compared as SHA-256 digests, in constant time): the operator's
 * own tools (KEIYAKU_OPERATOR_TOKEN for the CLI's /operator operations, KEIYAKU_METRICS_TOKEN for Prometheus).
 */
export function assertBearerSecret(secret: string | null, authorization: string | undefined): void {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (!secret || !presented || !timingSafeEqual(digest(presented), digest(secret))) {
    throw new AppError('UNAUTHENTICATED');
  }
}
