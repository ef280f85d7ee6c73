import type { Knex } from 'knex';
import type { CoreDeps } from '../deps.ts';
import { ipAllowed } from '../access/ip.ts';
import type { RequestContext } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { ensureTermsAccepted, termsConsentOwed } from '../modules/terms/service.ts';
import { changePassword } from './password-change.ts';
import { loadPasswordPolicy, passwordExpiresAt } from './password-policy.ts';
import { verifyDecoy, verifyPassword } from './passwords.ts';
import type { Sessions, TokenPair } from './sessions.ts';
import { clearFailures, recordFailure, reserveAttempt } from './throttle.ts';
import { type AuthUser, findUserById, findUserByLoginId } from './users.ts';

/** Sign-in and the password change that completes a sign-in (temporary or expired password). */
export class SignIn {
  constructor(
    private readonly deps: CoreDeps,
    private readonly sessions: Sessions,
  ) {}

  /**
   * Reserves the password check against the lock first (core/auth/throttle.ts), then checks the user ID and the
   * password; a failure of any kind answers the same and counts toward the lock. Only a correct password reveals the
   * account's state (temporary, expired, IP refused).
   */
  private async authenticate(loginId: string, password: string, req: RequestContext): Promise<AuthUser> {
    const { knex, clock, oplog } = this.deps;
    const attempt = await reserveAttempt(knex, loginId, clock.now());
    const user = await findUserByLoginId(knex, loginId);
    const active = user !== null && user.status === 'active';
    // An unknown or deactivated ID costs the same hashing time as a real check, so timing reveals nothing.
    const valid = active ? await verifyPassword(user.password_hash, password) : (await verifyDecoy(password), false);
    if (!valid) {
      const lock = await recordFailure(knex, attempt, clock.now());
      await oplog.record(knex, req, {
        action: lock ? 'auth.locked' : 'auth.sign_in_failed',
        organizationId: user?.organization_id ?? null,
        actorUserId: user?.id ?? null,
        details: { loginId },
      });
      throw lock ?? new AppError('INVALID_CREDENTIALS');
    }
    // The right password settles the reserved check; only it learns of an administrator's lock, like every other
    // account state.
    await clearFailures(knex, loginId);
    if (user!.locked_at) throw new AppError('ACCOUNT_LOCKED_BY_ADMIN');
    // A plugin may refuse passwords for this user (single sign-on only): learnt, like the rest, after the password.
    await this.deps.events.guard('auth.password_sign_in', await this.guardEvent(user!));
    return user!;
  }

  private async guardEvent(user: AuthUser) {
    const organization = await this.deps
      .knex('organizations')
      .where({ id: user.organization_id })
      .first('plan', 'options', 'code');
    const row = await this.deps.knex('users').where({ id: user.id }).first('is_admin', 'is_owner');
    return {
      organizationId: user.organization_id,
      organizationCode: organization.code as string,
      userId: user.id,
      isAdmin: Boolean(row.is_admin || row.is_owner),
      plan: organization.plan,
      options: organization.options ?? [],
    };
  }

  private async assertIpAllowed(user: AuthUser, req: RequestContext): Promise<void> {
    const list = await this.deps.knex('ip_restrictions').where({ organization_id: user.organization_id }).pluck('cidr');
    if (ipAllowed(req.ip, list)) return;
    await this.deps.oplog.record(this.deps.knex, req, {
      action: 'auth.ip_restricted',
      organizationId: user.organization_id,
      actorUserId: user.id,
    });
    throw new AppError('IP_RESTRICTED', { params: { ip: req.ip } });
  }

  private async startSession(
    trx: Knex.Transaction,
    user: AuthUser,
    acceptTermId: string | undefined,
    req: RequestContext,
  ): Promise<TokenPair> {
    await ensureTermsAccepted(trx, user.id, acceptTermId, this.deps.clock.now());
    const pair = await this.sessions.start(trx, user, req);
    await this.deps.oplog.append(trx, req, {
      action: 'auth.signed_in',
      organizationId: user.organization_id,
      actorUserId: user.id,
    });
    return pair;
  }

  async signIn(
    input: { loginId: string; password: string; acceptTermId?: string },
    req: RequestContext,
  ): Promise<TokenPair> {
    const { knex, clock } = this.deps;
    const user = await this.authenticate(input.loginId, input.password, req);
    await this.assertIpAllowed(user, req);
    const now = clock.now();
    if (user.must_change_password) {
      if (user.temporary_password_expires_at && user.temporary_password_expires_at <= now) {
        throw new AppError('TEMPORARY_PASSWORD_EXPIRED');
      }
      throw new AppError('INITIAL_PASSWORD_CHANGE_REQUIRED', { params: await this.consentParams(user, now) });
    }
    const expiresAt = passwordExpiresAt(user.password_changed_at, await loadPasswordPolicy(knex, user.organization_id));
    if (expiresAt && expiresAt <= now) {
      throw new AppError('PASSWORD_EXPIRED', { params: await this.consentParams(user, now) });
    }
    const pair = await knex.transaction((trx) => this.startSession(trx, user, input.acceptTermId, req));
    await this.signedIn(user);
    return pair;
  }

  /**
   * The password change that completes this sign-in also needs the terms agreed: `termsConsent` (first or revised)
   * tells its screen to ask up front (only after the right password, like every other account state).
   */
  private async consentParams(user: AuthUser, now: Date): Promise<Record<string, string>> {
    const owed = await termsConsentOwed(this.deps.knex, user.id, now);
    return owed ? { termsConsent: owed } : {};
  }

  private async signedIn(user: AuthUser): Promise<void> {
    const organization = await this.deps.knex('organizations').where({ id: user.organization_id }).first('plan');
    await this.deps.events.emit('auth.signed_in', {
      organizationId: user.organization_id,
      userId: user.id,
      plan: organization.plan,
    });
  }

  /**
   * Signs in a user an identity provider vouched for (a plugin's single sign-on): the same account, IP and terms
   * checks as a password sign-in, without the password's own states (temporary, expired), which the provider owns.
   * Refuses a deactivated or deleted user with ACCOUNT_DEACTIVATED (the provider already told us who they are).
   */
  async signInWithIdentity(
    input: { userId: string; method: string; acceptTermId?: string; details?: Record<string, unknown> },
    req: RequestContext,
  ): Promise<TokenPair> {
    const { knex } = this.deps;
    const user = await findUserById(knex, input.userId);
    if (!user || user.status !== 'active') throw new AppError('ACCOUNT_DEACTIVATED');
    if (user.locked_at) throw new AppError('ACCOUNT_LOCKED_BY_ADMIN');
    await this.assertIpAllowed(user, req);
    const pair = await knex.transaction(async (trx) => {
      await ensureTermsAccepted(trx, user.id, input.acceptTermId, this.deps.clock.now());
      const tokens = await this.sessions.start(trx, user, req);
      await this.deps.oplog.append(trx, req, {
        action: 'auth.signed_in',
        organizationId: user.organization_id,
        actorUserId: user.id,
        details: { method: input.method, ...input.details },
      });
      return tokens;
    });
    await this.signedIn(user);
    return pair;
  }

  /** The first-password-change and expired-password-change screens: change, then sign in. */
  async changePasswordAndSignIn(
    input: {
      loginId: string;
      currentPassword: string;
      password: string;
      passwordConfirmation: string;
      acceptTermId?: string;
    },
    req: RequestContext,
  ): Promise<TokenPair> {
    const user = await this.authenticate(input.loginId, input.currentPassword, req);
    await this.assertIpAllowed(user, req);
    const now = this.deps.clock.now();
    if (user.must_change_password && user.temporary_password_expires_at && user.temporary_password_expires_at <= now) {
      throw new AppError('TEMPORARY_PASSWORD_EXPIRED');
    }
    const pair = await this.deps.knex.transaction(async (trx) => {
      await changePassword(this.deps, trx, user, input, req);
      return this.startSession(trx, user, input.acceptTermId, req);
    });
    await this.signedIn(user);
    return pair;
  }

  /** Ends the caller's session. */
  async signOut(principal: { sessionId: string; userId: string; organizationId: string }, req: RequestContext) {
    await this.deps.knex.transaction(async (trx) => {
      await this.sessions.revoke(trx, principal.sessionId, 'sign-out');
      await this.deps.oplog.append(trx, req, {
        action: 'auth.signed_out',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'session',
        targetId: principal.sessionId,
      });
    });
  }
}
