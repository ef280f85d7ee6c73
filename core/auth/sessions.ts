import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { PrincipalCache } from './principal-cache.ts';
import type { Clock } from '../clock.ts';
import type { Principal, RequestContext } from '../http/context.ts';
import { executeOnConnection } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import type { OperationLog } from '../modules/logs/operation-log.ts';
import { liveSuccessor, markRotated, ROTATION_GRACE_MS, wipeSealedSuccessors, withinGrace } from './rotation.ts';
import { hashOpaqueToken, newOpaqueToken, type TokenSigner } from './tokens.ts';

/** A session ends after this long without activity (the spec's 1,800,000 ms). */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
/** Activity is written at most this often, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 60_000;

export interface TokenPair {
  authorizationToken: string;
  refreshToken: string;
}

interface SessionUser {
  id: string;
  organization_id: string;
}

/** Every request with a bearer token runs this: one prepared statement (planned once per connection). */
const PRINCIPAL_SQL = `
  SELECT s.revoked_at, s.last_used_at, u.id AS user_id, u.login_id, u.status, u.is_admin, u.is_owner, u.locale,
         o.id AS organization_id, o.plan, o.options,
         coalesce((SELECT array_agg(i.cidr ORDER BY i.cidr) FROM ip_restrictions i WHERE i.organization_id = o.id),
                  '{}') AS ip_allow_list
    FROM auth_sessions s
    JOIN users u ON u.id = s.user_id
    JOIN organizations o ON o.id = u.organization_id
   WHERE s.id = $1 AND u.kind = 'person'`; // a service user (API key) never holds a session

interface PrincipalRow {
  revoked_at: Date | null;
  last_used_at: Date;
  user_id: string;
  login_id: string;
  status: string;
  is_admin: boolean;
  is_owner: boolean;
  locale: Principal['locale'];
  organization_id: string;
  plan: Principal['plan'];
  options: Principal['options'];
  ip_allow_list: string[];
}

/** Finds a refresh token with its session and user, locking its row so racing refreshes of it go one at a time. */
function lockRefreshToken(trx: Knex.Transaction, refreshToken: string) {
  return trx('refresh_tokens')
    .join('auth_sessions', 'auth_sessions.id', 'refresh_tokens.session_id')
    .join('users', 'users.id', 'auth_sessions.user_id')
    .where('refresh_tokens.token_hash', hashOpaqueToken(refreshToken))
    .forUpdate()
    .first(
      'refresh_tokens.id',
      'refresh_tokens.rotated_at',
      'refresh_tokens.successor_id',
      'refresh_tokens.successor_sealed',
      'auth_sessions.id as session_id',
      'auth_sessions.revoked_at',
      'auth_sessions.last_used_at',
      'users.id as user_id',
      'users.organization_id',
      'users.status',
    );
}

/**
 * Sign-in sessions: one row per sign-in (the refresh-token family), opaque refresh tokens stored hashed and rotated
 * on every use. Presenting a rotated token again revokes the family, except within the short grace window.
 */
export class Sessions {
  constructor(
    private readonly knex: Knex,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly oplog: OperationLog,
    /** The process's principal cache (PostgreSQL only; null on the embedded PGlite). */
    readonly cache: PrincipalCache | null = null,
  ) {}

  /** Starts a session for a user who just proved who they are. */
  async start(trx: Knex.Transaction, user: SessionUser, req: RequestContext): Promise<TokenPair> {
    const now = this.clock.now();
    const [session] = await trx('auth_sessions')
      .insert({ user_id: user.id, created_at: now, last_used_at: now, ip: req.ip, user_agent: req.userAgent })
      .returning('id');
    const { authorizationToken, refreshToken } = await this.issue(trx, user, session.id as string);
    return { authorizationToken, refreshToken };
  }

  private async issue(
    trx: Knex.Transaction,
    user: SessionUser,
    sessionId: string,
  ): Promise<TokenPair & { id: string }> {
    const now = this.clock.now();
    const refreshToken = newOpaqueToken();
    const [row] = await trx('refresh_tokens')
      .insert({ session_id: sessionId, token_hash: hashOpaqueToken(refreshToken), created_at: now })
      .returning('id');
    const authorizationToken = await this.accessToken(user, sessionId, now);
    return { authorizationToken, refreshToken, id: row.id as string };
  }

  private accessToken(user: SessionUser, sessionId: string, now: Date): Promise<string> {
    return this.signer.issue({ uid: user.id, oid: user.organization_id, sid: sessionId }, now);
  }

  /**
   * Exchanges a pair for a new one (refreshAuth). A token rotated less than {@link ROTATION_GRACE_MS} ago, presented
   * with an access token of its own session, answers the refresh token its rotation issued (or, when that one was
   * rotated too, the family's live one) with a fresh access token; later, it is reuse and ends the family.
   */
  async refresh(pair: TokenPair, req: RequestContext): Promise<TokenPair> {
    const claims = await this.signer.verifyIgnoringExpiry(pair.authorizationToken);
    const now = this.clock.now();
    type Outcome = { error: AppError } | { pair: TokenPair; sessionId?: string };
    const outcome = await this.knex.transaction(async (trx): Promise<Outcome> => {
      const token = await lockRefreshToken(trx, pair.refreshToken);
      // Another session's access token never unlocks this token, not even within the grace window.
      if (!token || token.session_id !== claims.sid || token.user_id !== claims.uid) {
        return { error: new AppError('REFRESH_TOKEN_INVALID') };
      }
      const user = { id: token.user_id as string, organization_id: token.organization_id as string };
      const log = {
        organizationId: user.organization_id,
        actorUserId: user.id,
        targetType: 'session',
        targetId: token.session_id,
      };
      if (token.revoked_at) return { error: new AppError('SESSION_REVOKED') };
      let successor: string | null = null;
      if (token.rotated_at) {
        if (withinGrace(token.rotated_at, now)) successor = await liveSuccessor(trx, token, pair.refreshToken);
        if (!successor) {
          await this.revokeIn(trx, token.session_id, 'refresh-token-reuse', now);
          await this.oplog.append(trx, req, { ...log, action: 'auth.refresh_token_reused' });
          return { error: new AppError('REFRESH_TOKEN_REUSED') };
        }
      }
      if (now.getTime() - token.last_used_at.getTime() > IDLE_TIMEOUT_MS) {
        await this.revokeIn(trx, token.session_id, 'idle-timeout', now);
        await this.oplog.append(trx, req, { ...log, action: 'auth.session_timed_out' });
        return { error: new AppError('SESSION_TIMEOUT') };
      }
      if (token.status !== 'active') return { error: new AppError('SESSION_REVOKED') };
      await trx('auth_sessions').where({ id: token.session_id }).update({ last_used_at: now });
      if (successor) {
        req.log.info({ sessionId: token.session_id }, 'rotated refresh token presented again within the grace window');
        const authorizationToken = await this.accessToken(user, token.session_id, now);
        return { pair: { authorizationToken, refreshToken: successor } };
      }
      const next = await this.issue(trx, user, token.session_id);
      await markRotated(
        trx,
        { id: token.id, token: pair.refreshToken },
        { id: next.id, token: next.refreshToken },
        now,
      );
      return {
        pair: { authorizationToken: next.authorizationToken, refreshToken: next.refreshToken },
        sessionId: token.session_id,
      };
    });
    // The revocation commits even though the caller gets an error.
    if ('error' in outcome) throw outcome.error;
    if (outcome.sessionId) {
      // Housekeeping after the commit, so it never holds locks a racing refresh of the family waits on.
      const windowStart = new Date(now.getTime() - ROTATION_GRACE_MS);
      await wipeSealedSuccessors(this.knex, outcome.sessionId, windowStart).catch((error: unknown) =>
        req.log.warn({ err: error }, 'wiping expired sealed refresh tokens failed'),
      );
    }
    return outcome.pair;
  }

  /** Drops the session from this process's cache once the transaction that ends it has committed. */
  private forgetOnCommit(trx: Knex, sessionId: string): void {
    const cache = this.cache;
    if (!cache) return;
    cache.forgetSession(sessionId);
    const committed = (trx as Knex.Transaction).executionPromise;
    if (committed) void committed.then(() => cache.forgetSession(sessionId)).catch(() => undefined);
  }

  private async revokeIn(trx: Knex, sessionId: string, reason: string, now: Date): Promise<void> {
    this.forgetOnCommit(trx, sessionId);
    await trx('auth_sessions')
      .where({ id: sessionId })
      .whereNull('revoked_at')
      .update({ revoked_at: now, revoked_reason: reason });
    // An ended family has no grace to give: its sealed successors go with it.
    await wipeSealedSuccessors(trx, sessionId);
  }

  /** Ends one session (sign-out). */
  async revoke(trx: Knex.Transaction, sessionId: string, reason: string): Promise<void> {
    await this.revokeIn(trx, sessionId, reason, this.clock.now());
  }

  /** Ends every session of a user except, optionally, the one making the change. */
  async revokeAllOf(trx: Knex.Transaction, userId: string, reason: string, except?: string): Promise<void> {
    const query = trx('auth_sessions').where({ user_id: userId }).whereNull('revoked_at');
    if (except) query.whereNot({ id: except });
    const ended = (await query.update({ revoked_at: this.clock.now(), revoked_reason: reason }, ['id'])) as {
      id: string;
    }[];
    for (const { id } of ended) this.forgetOnCommit(trx, id);
  }

  /**
   * Resolves the principal of a bearer request: a genuine unexpired token of a live, recently active session, or,
   * for a value with the API key prefix, the key's service user (core/modules/api-keys/authenticate.ts).
   */
  authenticator(apiKey?: { recognises(bearer: string): boolean; resolve(bearer: string): Promise<Principal> }) {
    return async (ctx: Context, _req: RequestContext): Promise<Principal> => {
      const header = ctx.get('authorization');
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw new AppError('UNAUTHENTICATED');
      if (apiKey?.recognises(match[1]!)) return apiKey.resolve(match[1]!);
      const now = this.clock.now();
      const claims = await this.signer.verify(match[1]!, now);
      const cached = this.cache?.session(claims.sid);
      // Served from the cache while the session is known live and its activity needs no write yet.
      if (cached && cached.principal.userId === claims.uid && now.getTime() - cached.lastUsedAt <= TOUCH_EVERY_MS) {
        return { ...cached.principal }; // a copy: nothing a request does to it reaches the next one
      }
      const generation = this.cache?.generation ?? 0;
      const { rows } = await executeOnConnection(this.knex, PRINCIPAL_SQL, [claims.sid], 'keiyaku_principal');
      const row = rows[0] as PrincipalRow | undefined;
      if (!row || row.user_id !== claims.uid || row.revoked_at || row.status !== 'active') {
        throw new AppError('SESSION_REVOKED');
      }
      const idleMs = now.getTime() - row.last_used_at.getTime();
      if (idleMs > IDLE_TIMEOUT_MS) throw new AppError('SESSION_TIMEOUT');
      let lastUsedAt = row.last_used_at;
      if (idleMs > TOUCH_EVERY_MS) {
        await this.knex('auth_sessions').where({ id: claims.sid }).update({ last_used_at: now });
        lastUsedAt = now;
      }
      const principal: Principal = {
        userId: row.user_id,
        loginId: row.login_id,
        organizationId: row.organization_id,
        sessionId: claims.sid,
        isAdmin: row.is_admin,
        isOwner: row.is_owner,
        plan: row.plan,
        options: row.options,
        locale: row.locale,
        ipAllowList: row.ip_allow_list,
      };
      this.cache?.putSession(generation, principal, lastUsedAt);
      return principal;
    };
  }
}
