/*
 * The `Idempotency-Key` step of the request pipeline (core/contract/router.ts). An operation takes part when its
 * contract declares the IdempotencyKey header parameter (JSON creates only). Per organization, user, operation and
 * key, the first request's SHA-256 is kept while it runs; a 2xx response is then kept for 24 hours and answered
 * again (with `Idempotency-Replayed: true`) to a retry with the same request. A failure (4xx/5xx, or a thrown error)
 * deletes the row, so the same key may be retried. Only the response body is kept, never the request; an operation
 * whose response holds a secret must not declare the header (and opts out with `idempotency: false`, which the
 * router checks at start-up).
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import { AppError } from '../http/errors.ts';
import type { ContractOperation } from './document.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';

/** How long a successful response is answered again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a running request holds its key; after that (a crash) a retry takes the key over. */
export const IDEMPOTENCY_LOCK_MS = 2 * 60 * 1000;

const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** Whether the contract declares the Idempotency-Key header on the operation. */
export function takesIdempotencyKey(op: Pick<ContractOperation, 'parameters'>): boolean {
  return op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase());
}

/** The response kept for a key. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Who and what a key belongs to. */
export interface IdempotencyScope {
  organizationId: string;
  userId: string;
  operationId: string;
  key: string;
}

/** A request that holds its key: it either keeps its response or lets the key go. */
export interface HeldKey {
  /** Keeps a 2xx JSON response without cookies; releases the key for anything else (a failure is not kept). */
  settle(
    status: number,
    result: { headers?: Record<string, string>; body?: unknown; cookies?: unknown[] },
  ): Promise<void>;
  release(): Promise<void>;
}

/** A body kept for a replay: plain JSON only (a stream or a file is never kept). */
function isPlainJson(body: unknown): boolean {
  if (body === undefined || body === null) return true;
  if (Array.isArray(body)) return true;
  return typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype;
}

/** A SHA-256 over a canonical JSON of the request's path parameters, query and body (keys sorted). */
export function requestHash(parts: { params: unknown; query: unknown; body: unknown }): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Validates a key as received in the header: 1–255 visible ASCII characters. */
export function assertValidKey(key: string): void {
  if (!VALID_KEY.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID', { params: { header: IDEMPOTENCY_HEADER } });
}

/** The table of keys: claiming a key, answering a kept response, keeping or releasing it. */
export class IdempotencyStore {
  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the key for this request, or answers what an earlier request with the same key decides: its kept
   * response (a replay), 422 IDEMPOTENCY_KEY_REUSED for a different request, 409 IDEMPOTENCY_KEY_IN_PROGRESS while
   * it still runs.
   */
  async claim(scope: IdempotencyScope, hash: string): Promise<{ replay: StoredResponse } | { held: HeldKey }> {
    const where = {
      organization_id: scope.organizationId,
      user_id: scope.userId,
      operation_id: scope.operationId,
      key: scope.key,
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const fresh = {
        request_hash: hash,
        state: 'running',
        response_status: null,
        response_headers: null,
        response_body: null,
        created_at: now,
        locked_until: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      };
      const inserted = await this.knex('idempotency_keys')
        .insert({ ...where, ...fresh })
        .onConflict(['organization_id', 'user_id', 'operation_id', 'key'])
        .ignore()
        .returning('key');
      if (inserted.length > 0) {
        await this.knex('idempotency_keys')
          .where({ organization_id: scope.organizationId })
          .where('expires_at', '<=', now)
          .delete();
        return { held: this.held({ ...where, created_at: now }) };
      }
      const row = await this.knex('idempotency_keys').where(where).first();
      if (!row) continue; // released meanwhile: claim again
      const lapsed = row.expires_at <= now || (row.state === 'running' && row.locked_until <= now);
      if (lapsed) {
        // Expired, or abandoned by a crash: take it over unless another retry did so first.
        const taken = await this.knex('idempotency_keys')
          .where(where)
          .where((w) =>
            w
              .where('expires_at', '<=', now)
              .orWhere((r) => r.where({ state: 'running' }).where('locked_until', '<=', now)),
          )
          .update(fresh)
          .returning('key');
        if (taken.length > 0) return { held: this.held({ ...where, created_at: now }) };
        continue;
      }
      if (row.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      if (row.state === 'running') throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS');
      return { replay: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body } };
    }
    throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS');
  }

  /** The key as this claim holds it (`created_at` tells it from a later claim that took a lapsed key over). */
  private held(where: Record<string, string | Date>): HeldKey {
    const knex = this.knex;
    const release = async () => {
      await knex('idempotency_keys').where(where).where({ state: 'running' }).delete();
    };
    return {
      async settle(status, result) {
        const keep = status >= 200 && status < 300 && !result.cookies?.length && isPlainJson(result.body);
        if (!keep) return release();
        await knex('idempotency_keys')
          .where(where)
          .update({
            state: 'done',
            response_status: status,
            response_headers: JSON.stringify(result.headers ?? {}),
            response_body: JSON.stringify(result.body ?? null),
          });
      },
      release,
    };
  }
}

/**
 * The pipeline step: null when the operation does not take a key or the request sends none; otherwise the claim
 * (a kept response to answer again, or the key now held by this request).
 */
export async function claimIdempotencyKey(
  store: IdempotencyStore | null,
  op: ContractOperation,
  header: string | undefined,
  input: {
    principal: { organizationId: string; userId: string } | null;
    params: unknown;
    query: unknown;
    body: unknown;
  },
): Promise<{ replay: StoredResponse } | { held: HeldKey } | null> {
  if (!store || header === undefined || !input.principal || !takesIdempotencyKey(op)) return null;
  assertValidKey(header);
  const { organizationId, userId } = input.principal;
  const scope = { organizationId, userId, operationId: op.operationId, key: header };
  return store.claim(scope, requestHash({ params: input.params, query: input.query, body: input.body }));
}
