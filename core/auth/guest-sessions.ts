/*
 * Guest sessions: a one-time user's sign-in to the one business flow of one invitation, after proving the e-mail
 * address with a code (core/modules/one-time-users). Tokens are apart from members' in every way:
 *  - the access token is a JWT under its own key (derived from the master key with another label) and audience,
 *    so a member operation refuses it (401) and a guest operation refuses a member's token (401);
 *  - it lives 10 minutes; the refresh token is opaque, stored hashed, rotated on every use (the web keeps both in
 *    sessionStorage: one tab, no sharing between tabs, so no grace window), and presenting a replaced one again ends
 *    the session;
 *  - a session ends after 30 minutes without activity, 12 hours after it began, and as soon as its invitation is
 *    cancelled (every request joins the invitation's status); a re-sent invitation ends its sessions explicitly
 *    (revokeInvitation).
 */
import { hkdfSync } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import { executeOnConnection } from '../db/index.ts';
import type { GuestPrincipal, RequestContext } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { IDLE_TIMEOUT_MS, type TokenPair } from './sessions.ts';
import { hashOpaqueToken, newOpaqueToken } from './tokens.ts';

const ISSUER = 'keiyaku';
const AUDIENCE = 'keiyaku-guest';
/** A guest's access token lives this long; the web refreshes it while the guest keeps working. */
export const GUEST_ACCESS_TTL_SECONDS = 600;
/** A guest session ends this long after it began, however active. */
export const GUEST_SESSION_MAX_MS = 12 * 3600_000;
const TOUCH_EVERY_MS = 60_000;

interface GuestClaims {
  gid: string;
  sid: string;
  bf: string;
}

/** What a guest session is started for: one invitation of one one-time user. */
export interface GuestSessionSubject {
  oneTimeUserId: string;
  invitationId: string;
  businessFlowId: string;
  organizationId: string;
}

const PRINCIPAL_SQL = `
  SELECT s.revoked_at, s.last_used_at, s.expires_at, s.invitation_id, i.status AS invitation_status,
         i.business_flow_id, f.workspace_id, f.organization_id, u.id AS one_time_user_id, u.name, u.email, u.locale,
         (SELECT c.term_id FROM guest_term_consents c JOIN terms t ON t.id = c.term_id
           WHERE c.invitation_id = i.id ORDER BY t.effective_at DESC LIMIT 1) AS accepted_term_id
    FROM guest_sessions s
    JOIN one_time_invitations i ON i.id = s.invitation_id
    JOIN one_time_users u ON u.id = s.one_time_user_id
    JOIN business_flows f ON f.id = i.business_flow_id
   WHERE s.id = $1`;

interface PrincipalRow {
  revoked_at: Date | null;
  last_used_at: Date;
  expires_at: Date;
  invitation_id: string;
  invitation_status: string;
  business_flow_id: string;
  workspace_id: string;
  organization_id: string;
  one_time_user_id: string;
  name: string;
  email: string;
  locale: GuestPrincipal['locale'];
  accepted_term_id: string | null;
}

/** Starts, refreshes, ends and checks guest sessions. */
export class GuestSessions {
  private readonly key: Uint8Array;

  constructor(
    private readonly knex: Knex,
    masterKey: Buffer,
    private readonly clock: Clock,
  ) {
    this.key = new Uint8Array(hkdfSync('sha256', masterKey, 'keiyaku', 'guest-access-token-signing', 32));
  }

  /** Starts a session for a guest who just proved the address of `subject`'s invitation. */
  async start(trx: Knex.Transaction, subject: GuestSessionSubject, req: RequestContext): Promise<TokenPair> {
    const now = this.clock.now();
    const refreshToken = newOpaqueToken();
    const [session] = await trx('guest_sessions')
      .insert({
        organization_id: subject.organizationId,
        one_time_user_id: subject.oneTimeUserId,
        invitation_id: subject.invitationId,
        refresh_token_hash: hashOpaqueToken(refreshToken),
        created_at: now,
        last_used_at: now,
        expires_at: new Date(now.getTime() + GUEST_SESSION_MAX_MS),
        ip: req.ip,
        user_agent: req.userAgent,
      })
      .returning('id');
    const authorizationToken = await this.accessToken(subject.oneTimeUserId, session.id as string, subject, now);
    return { authorizationToken, refreshToken };
  }

  private accessToken(guestId: string, sessionId: string, subject: { businessFlowId: string }, now: Date) {
    const iat = Math.floor(now.getTime() / 1000);
    const claims: GuestClaims = { gid: guestId, sid: sessionId, bf: subject.businessFlowId };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(guestId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + GUEST_ACCESS_TTL_SECONDS)
      .sign(this.key);
  }

  /**
   * Exchanges a refresh token for a new pair while the session and its invitation are live. A refresh token already
   * exchanged ends the session (REFRESH_TOKEN_REUSED); any other unknown one is REFRESH_TOKEN_INVALID.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const now = this.clock.now();
    const hash = hashOpaqueToken(refreshToken);
    const outcome = await this.knex.transaction(async (trx): Promise<{ error: AppError } | { pair: TokenPair }> => {
      const reused = await trx('guest_sessions').where({ previous_token_hash: hash }).forUpdate().first('id');
      if (reused) {
        await this.revokeIn(trx, reused.id as string, 'refresh-token-reuse', now);
        return { error: new AppError('REFRESH_TOKEN_REUSED') };
      }
      const session = await trx('guest_sessions as s')
        .join('one_time_invitations as i', 'i.id', 's.invitation_id')
        .where('s.refresh_token_hash', hash)
        .forUpdate('s')
        .first('s.*', 'i.status as invitation_status', 'i.business_flow_id');
      if (!session) return { error: new AppError('REFRESH_TOKEN_INVALID') };
      const ended = endedBy(session, now);
      if (ended) {
        if (!session.revoked_at) await this.revokeIn(trx, session.id, ended.reason, now);
        return { error: ended.error };
      }
      const next = newOpaqueToken();
      await trx('guest_sessions')
        .where({ id: session.id })
        .update({ refresh_token_hash: hashOpaqueToken(next), previous_token_hash: hash, last_used_at: now });
      const authorizationToken = await this.accessToken(
        session.one_time_user_id,
        session.id,
        {
          businessFlowId: session.business_flow_id,
        },
        now,
      );
      return { pair: { authorizationToken, refreshToken: next } };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.pair;
  }

  /** Ends one guest session (sign-out). */
  async revoke(trx: Knex, sessionId: string, reason: string): Promise<void> {
    await this.revokeIn(trx, sessionId, reason, this.clock.now());
  }

  /** Ends every live session of an invitation (cancelled, re-sent). */
  async revokeInvitation(trx: Knex, invitationId: string, reason: string): Promise<void> {
    await trx('guest_sessions')
      .where({ invitation_id: invitationId })
      .whereNull('revoked_at')
      .update({ revoked_at: this.clock.now(), revoked_reason: reason });
  }

  private async revokeIn(trx: Knex, sessionId: string, reason: string, now: Date): Promise<void> {
    await trx('guest_sessions')
      .where({ id: sessionId })
      .whereNull('revoked_at')
      .update({ revoked_at: now, revoked_reason: reason });
  }

  /** Resolves the guest of a request with a guest token: a genuine unexpired token of a live session. */
  authenticator() {
    return async (ctx: Context, _req: RequestContext): Promise<GuestPrincipal> => {
      const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
      if (!match) throw new AppError('UNAUTHENTICATED');
      const now = this.clock.now();
      const claims = await this.verify(match[1]!, now);
      const { rows } = await executeOnConnection(this.knex, PRINCIPAL_SQL, [claims.sid], 'keiyaku_guest_principal');
      const row = rows[0] as PrincipalRow | undefined;
      if (!row || row.one_time_user_id !== claims.gid || row.business_flow_id !== claims.bf) {
        throw new AppError('SESSION_REVOKED');
      }
      const ended = endedBy({ ...row }, now);
      if (ended) throw ended.error;
      if (now.getTime() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
        await this.knex('guest_sessions').where({ id: claims.sid }).update({ last_used_at: now });
      }
      return {
        oneTimeUserId: row.one_time_user_id,
        invitationId: row.invitation_id,
        businessFlowId: row.business_flow_id,
        workspaceId: row.workspace_id,
        organizationId: row.organization_id,
        sessionId: claims.sid,
        name: row.name,
        email: row.email,
        locale: row.locale,
        acceptedTermId: row.accepted_term_id,
      };
    };
  }

  private async verify(token: string, now: Date): Promise<GuestClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: now,
        clockTolerance: 0,
      });
      return payload as unknown as GuestClaims;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
      throw new AppError('UNAUTHENTICATED', { cause: error });
    }
  }
}

/** Why a session may no longer be used, or null while it may. */
function endedBy(
  session: { revoked_at: Date | null; last_used_at: Date; expires_at: Date; invitation_status: string },
  now: Date,
): { error: AppError; reason: string } | null {
  if (session.revoked_at) return { error: new AppError('SESSION_REVOKED'), reason: 'revoked' };
  if (session.invitation_status === 'cancelled') {
    return { error: new AppError('SESSION_REVOKED'), reason: 'invitation-cancelled' };
  }
  if (session.expires_at.getTime() <= now.getTime()) {
    return { error: new AppError('SESSION_TIMEOUT'), reason: 'session-expired' };
  }
  if (now.getTime() - session.last_used_at.getTime() > IDLE_TIMEOUT_MS) {
    return { error: new AppError('SESSION_TIMEOUT'), reason: 'idle-timeout' };
  }
  return null;
}
