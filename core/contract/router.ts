import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { assertPlanFeature, type PlanFeature } from '../access/plans.ts';
import { PERMISSIONS_VERSION_HEADER } from '../access/permissions-version.ts';
import { hasPermission, type Permission } from '../access/permissions.ts';
import { ipAllowed } from '../access/ip.ts';
import { assertApiKeyMayCall } from '../access/api-key-scopes.ts';
import type { RateLimiter, RouteRateLimit } from '../access/rate-limits.ts';
import { AppError, type FieldError } from '../http/errors.ts';
import type { GuestPrincipal, Principal, RequestContext } from '../http/context.ts';
import { refuseInvalidCharacters } from '../http/invalid-characters.ts';
import { FormBody } from '../http/form-body.ts';
import { MultipartRequest } from '../http/multipart-body.ts';
import type { operations } from './api.gen.ts';
import { type Contract, type ContractOperation, pointersOf } from './document.ts';
import { undeclaredPipelineStatuses } from './pipeline-statuses.ts';
import * as idempotency from './idempotency.ts';

type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type JsonBody<K extends OperationId> =
  Op<K> extends { requestBody: { content: { 'text/csv': unknown } } }
    ? Buffer
    : Op<K> extends { requestBody: { content: { 'multipart/form-data': unknown } } }
      ? MultipartRequest | null
      : Op<K> extends { requestBody: { content: { 'application/x-www-form-urlencoded': infer F } } }
        ? F
        : Op<K> extends { requestBody: { content: { 'application/json': infer B } } }
          ? B
          : Op<K> extends { requestBody?: { content: { 'application/json': infer B } } }
            ? B | undefined
            : undefined;
type Params<K extends OperationId, L extends 'path' | 'query'> =
  Op<K> extends { parameters: infer P }
    ? P extends { [X in L]?: infer V }
      ? [NonNullable<V>] extends [never]
        ? Record<string, never>
        : NonNullable<V>
      : Record<string, never>
    : Record<string, never>;

/** What a handler receives: validated input and the request context, never Koa's ctx. */
export interface OperationInput<K extends OperationId> {
  body: JsonBody<K>;
  params: Params<K, 'path'>;
  query: Params<K, 'query'>;
  req: RequestContext;
  /** A cookie of the request by name (only the web's refresh-token cookie is read: core/auth/routes.ts). */
  cookie(name: string): string | undefined;
  /** A request header by name (only operations authenticated by other means than a bearer token read one). */
  header(name: string): string | undefined;
}

/** Input of an operation that declares bearer security: the principal is always there. */
export interface AuthedInput<K extends OperationId> extends OperationInput<K> {
  principal: Principal;
}

/** What a handler returns; the status defaults to the first 2xx the contract declares. */
export interface OperationResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Cookies to set (a null value clears one); always HttpOnly and SameSite=Strict, Secure over https. */
  cookies?: ResponseCookie[];
}

/** A cookie an operation sets: the only kind is the web's refresh-token cookie, out of page scripts' reach. */
export interface ResponseCookie {
  name: string;
  value: string | null;
  path: string;
  maxAgeMs?: number;
}

/** Route metadata: permission and plan gates are declared here, not in handlers. */
export interface RouteOptions {
  permission?: Permission;
  feature?: PlanFeature;
  /** Limits counted after validation, before the handler (core/access/rate-limits.ts): 429 TOO_MANY_REQUESTS. */
  rateLimit?: readonly RouteRateLimit[];
  /**
   * `false` for an operation whose response must never be kept for a replay (it answers a secret once, e.g. a new
   * API key): its contract must not declare the Idempotency-Key header (checked at start-up).
   */
  idempotency?: false;
}

/** Input of an operation secured by the `guest` scheme: the one-time user is always there, no principal. */
export interface GuestInput<K extends OperationId> extends OperationInput<K> {
  guest: GuestPrincipal;
}

export type Handler<K extends OperationId> = (input: AuthedInput<K>) => Promise<OperationResult>;
export type GuestHandler<K extends OperationId> = (input: GuestInput<K>) => Promise<OperationResult>;

/** Records one request an API key authenticated, once its status is known. */
export type ApiKeyUseRecorder = (
  req: RequestContext,
  op: Pick<ContractOperation, 'operationId' | 'method'>,
  status: number,
) => Promise<void>;

/** Resolves the principal of a bearer request, or throws 401. */
export type Authenticator = (ctx: Context, req: RequestContext) => Promise<Principal>;
/** Resolves the one-time user of a guest request, or throws 401. */
export type GuestAuthenticator = (ctx: Context, req: RequestContext) => Promise<GuestPrincipal>;

/** Route metadata of a guest operation: only rate limits (guests have no plan, permission or IP list of theirs). */
export type GuestRouteOptions = Pick<RouteOptions, 'rateLimit'>;

/** Marks an operation that belongs to a plugin switched off, so it answers 403 instead of 404. */
export interface UnboundOperation {
  operationId: string;
  reason: 'plugin-disabled';
}

/**
 * Binds handlers to contract operations by operationId. The pipeline per route is the one DESIGN.md lists:
 * authentication, IP restriction, plan feature, permission, request validation, rate limits, handler.
 */
export class ApiRouter {
  private readonly bound = new Map<string, { options: RouteOptions; handler: Handler<never> }>();

  constructor(
    readonly contract: Contract,
    private readonly authenticate: Authenticator,
    private readonly rateLimiter: RateLimiter | null = null,
    private readonly authenticateGuest: GuestAuthenticator | null = null,
    /** The signed-in user's current permissions version (core/access/permissions-version.ts), for the 409 check. */
    private readonly permissionsVersion: ((principal: Principal) => Promise<string>) | null = null,
  ) {}

  operation<K extends OperationId>(operationId: K, options: RouteOptions, handler: Handler<K>): void;
  operation<K extends OperationId>(operationId: K, handler: Handler<K>): void;
  operation<K extends OperationId>(
    operationId: K,
    optionsOrHandler: RouteOptions | Handler<K>,
    maybeHandler?: Handler<K>,
  ): void {
    const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
    const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler!;
    // fails fast on a name the contract lacks
    if (this.contract.operation(operationId).guest) throw new Error(`operation ${operationId} is a guest operation`);
    this.bind(operationId, options, handler as Handler<never>);
  }

  /** Binds an operation secured by the `guest` scheme (a one-time user's token). */
  guestOperation<K extends OperationId>(operationId: K, options: GuestRouteOptions, handler: GuestHandler<K>): void {
    if (!this.contract.operation(operationId).guest) throw new Error(`operation ${operationId} is not a guest one`);
    if (!this.authenticateGuest) throw new Error(`operation ${operationId}: no guest authenticator`);
    this.bind(operationId, options, handler as unknown as Handler<never>);
  }

  private bind(operationId: string, options: RouteOptions, handler: Handler<never>): void {
    if (this.bound.has(operationId)) throw new Error(`operation ${operationId} bound twice`);
    if (options.rateLimit?.length && !this.rateLimiter) throw new Error(`operation ${operationId}: no rate limiter`);
    this.bound.set(operationId, { options, handler });
  }

  isBound(operationId: string): boolean {
    return this.bound.has(operationId);
  }

  /** Whether the operation declares a rate limit (so its contract must list 429). */
  isRateLimited(operationId: string): boolean {
    return (this.bound.get(operationId)?.options.rateLimit?.length ?? 0) > 0;
  }

  /**
   * Builds the Koa router; every contract operation must be bound or listed as unbound, and declare every status
   * the shared pipeline can answer for it (core/contract/pipeline-statuses.ts).
   */
  routes(unbound: UnboundOperation[] = []): Middleware {
    const router = new Router();
    const skipped = new Set(unbound.map((u) => u.operationId));
    for (const op of this.contract.operations.values()) {
      const entry = this.bound.get(op.operationId);
      if (!entry && !skipped.has(op.operationId)) {
        throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
      }
      if (idempotency.takesIdempotencyKey(op)) this.checkIdempotent(op, entry?.options);
      const undeclared = undeclaredPipelineStatuses(op, { rateLimited: this.isRateLimited(op.operationId) });
      if (undeclared.length > 0) {
        throw new Error(`openapi.yaml operation ${op.operationId} does not declare ${undeclared.join(', ')}`);
      }
      const koaPath = op.base + op.path.replace(/\{(\w+)\}/g, ':$1');
      const middleware = entry ? this.pipeline(op, entry.options, entry.handler) : this.unavailable(op);
      // Named before anything can fail: metrics and logs tell the operation of refused requests too.
      const named: Middleware = (ctx, next) => {
        ctx.state.operationId = op.operationId;
        return next();
      };
      router.register(koaPath, [op.method], [named, middleware]);
    }
    return router.routes() as unknown as Middleware;
  }

  private unavailable(op: ContractOperation): Middleware {
    return async (ctx) => {
      if (op.guest) await this.authenticateGuest?.(ctx, ctx.state.req);
      else if (op.authenticated) await this.authenticate(ctx, ctx.state.req);
      throw new AppError('PLAN_FEATURE_UNAVAILABLE');
    };
  }

  /** Receives every request an API key authenticated, with its final status (the operation log's `api_key.used`). */
  private apiKeyUse: ApiKeyUseRecorder | null = null;

  /** Sets where requests authenticated by an API key are recorded (core/modules/api-keys/record-use.ts). */
  recordApiKeyUses(recorder: ApiKeyUseRecorder): void {
    this.apiKeyUse = recorder;
  }

  private pipeline(op: ContractOperation, options: RouteOptions, handler: Handler<never>): Middleware {
    const run = this.steps(op, options, handler);
    return async (ctx) => {
      try {
        await run(ctx);
      } catch (error) {
        const status = error instanceof AppError ? error.status : 500;
        if (ctx.state.req.principal?.apiKey) await this.apiKeyUse?.(ctx.state.req, op, status);
        throw error;
      }
      if (ctx.state.req.principal?.apiKey) await this.apiKeyUse?.(ctx.state.req, op, ctx.status);
    };
  }

  private steps(
    op: ContractOperation,
    options: RouteOptions,
    handler: Handler<never>,
  ): (ctx: Context) => Promise<void> {
    return async (ctx) => {
      const req: RequestContext = ctx.state.req;
      let principal: Principal | null = null;
      let guest: GuestPrincipal | null = null;
      if (op.guest) {
        guest = await this.authenticateGuest!(ctx, req);
        req.guest = guest;
        req.log = req.log.child({ oneTimeUserId: guest.oneTimeUserId, organizationId: guest.organizationId });
      } else if (op.authenticated) {
        principal = await this.authenticate(ctx, req);
        req.principal = principal;
        req.log = req.log.child({ userId: principal.userId, organizationId: principal.organizationId });
        if (!ipAllowed(req.ip, principal.ipAllowList)) throw new AppError('IP_RESTRICTED', { params: { ip: req.ip } });
        assertApiKeyMayCall(op, principal); // plan feature, personal operations and scopes of an API key
        if (options.feature) assertPlanFeature(principal, options.feature);
        if (options.permission && !hasPermission(principal, options.permission))
          throw new AppError('FUNCTION_NOT_PERMITTED');
        // A write from a screen that read the user's permissions before they changed (409 PERMISSIONS_CHANGED);
        // only operations that declare 409 take part, so the contract lists every status they answer.
        const seenVersion = ctx.get(PERMISSIONS_VERSION_HEADER);
        if (seenVersion && op.method !== 'GET' && '409' in op.responses && this.permissionsVersion) {
          if (seenVersion !== (await this.permissionsVersion(principal))) throw new AppError('PERMISSIONS_CHANGED');
        }
      }
      const input = {
        params: this.validParameters(op, 'path', ctx.params),
        query: this.validParameters(op, 'query', ctx.query),
        body: op.hasBody ? this.validBody(op, ctx.request.body) : undefined,
        req,
        principal,
        guest,
        cookie: (name: string) => ctx.cookies.get(name),
        header: (name: string) => ctx.get(name) || undefined,
      };
      const key = input.header(idempotency.IDEMPOTENCY_HEADER);
      const claim = await idempotency.claimIdempotencyKey(this.idempotencyKeys, op, key, input);
      if (claim && 'replay' in claim) return this.replay(ctx, op, claim.replay);
      // A refusal after the claim (429 from the rate limit, any error of the handler) frees the key for a retry.
      const held = claim && 'held' in claim ? claim.held : null;
      const run = async () => {
        const refund = options.rateLimit ? await this.rateLimiter!.consume(options.rateLimit, input) : null;
        const answer = await handler(input as never);
        await refund?.();
        return answer;
      };
      const result = await run().catch(async (error: unknown) => {
        await held?.release();
        throw error;
      });
      const status = result.status ?? Number(Object.keys(op.responses).find((s) => s.startsWith('2')) ?? 200);
      if (held) await held.settle(status, result);
      ctx.status = status;
      for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
      for (const { name, value, path, maxAgeMs } of result.cookies ?? []) {
        const options = { path, maxAge: maxAgeMs, httpOnly: true, sameSite: 'strict', secure: ctx.secure } as const;
        ctx.cookies.set(name, value, options);
      }
      if (result.body !== undefined) ctx.body = result.body;
      else if (status !== 204) {
        // Without an explicit null body Koa answers e.g. 202 with its status text as text/plain ("Accepted").
        ctx.body = null;
        ctx.status = status;
      }
      ctx.state.operation = op;
    };
  }

  /** Where Idempotency-Key claims and kept responses live (core/contract/idempotency.ts); none: keys are ignored. */
  private idempotencyKeys: idempotency.IdempotencyStore | null = null;

  /** Turns on the Idempotency-Key step for the operations whose contract declares the header. */
  useIdempotencyKeys(store: idempotency.IdempotencyStore): void {
    this.idempotencyKeys = store;
  }

  /** An operation declaring Idempotency-Key must be a bearer JSON create that keeps its response (start-up check). */
  private checkIdempotent(op: ContractOperation, options: RouteOptions | undefined): void {
    const problem =
      options?.idempotency === false
        ? 'opts out of idempotency (its response is a secret)'
        : !op.authenticated || op.guest
          ? 'is not a bearer operation'
          : op.requestMediaTypes.some((m) => m !== 'application/json')
            ? 'takes a non-JSON body'
            : null;
    if (problem) throw new Error(`openapi.yaml operation ${op.operationId} declares Idempotency-Key but ${problem}`);
  }

  /** Answers the response kept for an Idempotency-Key again. */
  private replay(ctx: Context, op: ContractOperation, kept: idempotency.StoredResponse): void {
    ctx.status = kept.status;
    for (const [name, value] of Object.entries(kept.headers)) ctx.set(name, value);
    ctx.set(idempotency.REPLAYED_HEADER, 'true');
    ctx.body = kept.body;
    ctx.state.operation = op;
  }

  private validParameters(op: ContractOperation, location: 'path' | 'query', raw: unknown): unknown {
    const value = { ...(raw as object) };
    // "%00" decodes to NUL in a path or query value; undeclared parameters are ignored, as the handler ignores them.
    const declared = op.parameters.filter((p) => p.in === location).map((p) => p.name);
    refuseInvalidCharacters(value, declared);
    const validate = this.contract.parameterValidator(op, location);
    if (validate(value)) return value;
    throw AppError.invalid(
      pointersOf(validate.errors ?? []).map((e): FieldError => ({
        code: 'VALIDATION_FAILED',
        pointer: e.pointer,
        detail: `${location} ${e.pointer} ${e.message}`,
      })),
    );
  }

  private validBody(op: ContractOperation, body: unknown): unknown {
    // A multipart upload is read by its handler, with the size limit of its upload place, after the access checks
    // (core/http/multipart-body.ts); null when the request is not multipart: the handler answers 415 then.
    const acceptsMultipart = op.requestMediaTypes.includes('multipart/form-data');
    if (acceptsMultipart) return body instanceof MultipartRequest ? body : null;
    if (body instanceof MultipartRequest) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    // A form post (core/http/form-body.ts) reaches only operations that declare one; its fields are strings.
    const acceptsForm = op.requestMediaTypes.includes('application/x-www-form-urlencoded');
    if (body instanceof FormBody !== acceptsForm) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    if (body instanceof FormBody) {
      refuseInvalidCharacters(body.fields);
      const formErrors = this.contract.validateBody(op, body.fields, 'application/x-www-form-urlencoded');
      if (!formErrors) return body.fields;
      throw AppError.invalid(
        pointersOf(formErrors).map((e): FieldError => ({
          code: 'VALIDATION_FAILED',
          pointer: e.pointer,
          detail: e.message,
        })),
      );
    }
    // A text/csv body arrives as raw bytes (core/http/csv-body.ts); the handler decodes and validates it.
    const acceptsCsv = op.requestMediaTypes.includes('text/csv');
    if (Buffer.isBuffer(body) !== acceptsCsv) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    if (acceptsCsv) return body;
    refuseInvalidCharacters(body); // before the schema: "\u0000" and "\ud800" are valid JSON strings
    const errors = this.contract.validateBody(op, body ?? {});
    if (!errors) return body;
    throw AppError.invalid(
      pointersOf(errors).map((e): FieldError => ({ code: 'VALIDATION_FAILED', pointer: e.pointer, detail: e.message })),
    );
  }
}
