import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import {
  AppError,
  assertPlanFeature,
  authResult,
  definePlugin,
  perIp,
  type PluginContext,
  type RequestContext,
} from '../../core/plugins/index.ts';

export interface SsoConfig {
  /** Accept http:// issuers (KEIYAKU_PLUGIN_SSO_ALLOW_INSECURE_ISSUERS=true): local test providers only. */
  allowInsecureIssuers: boolean;
  /** How long a started sign-in may take at the provider. */
  attemptTtlSeconds: number;
  /** How long an identified user waits for the terms consent before the sign-in must start again. */
  termsHoldSeconds: number;
  /** Timeout of each request to the provider. */
  providerTimeoutSeconds: number;
}

/** Always requested (spec §7); the organization's extra scopes come after. */
export const BASE_SCOPES = 'openid offline_access';
export const DEFAULT_EXTRA_SCOPES = 'email profile';

type Ctx = PluginContext<SsoConfig>;

interface ProviderRow {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: Buffer;
  extra_scopes: string;
  jit_enabled: boolean;
  jit_group_id: string | null;
  sso_only: boolean;
  updated_at: Date;
}

interface AttemptRow {
  id: string;
  organization_id: string;
  binding_hash: Buffer;
  nonce: string;
  verifier_sealed: Buffer;
  issuer: string;
  redirect_uri: string;
  status: 'started' | 'exchanged' | 'awaiting_terms' | 'done';
  verified_user_id: string | null;
  verified_subject: string | null;
  expires_at: Date;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** The provider's metadata and our client, from its discovery document; AppError `failure` when unreadable. */
async function discover(
  ctx: Ctx,
  provider: { issuer: string; clientId: string; clientSecret: string },
  failure: 'SSO_DISCOVERY_FAILED' | 'SSO_PROVIDER_UNAVAILABLE',
): Promise<oidc.Configuration> {
  try {
    const config = await oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      undefined,
      oidc.ClientSecretBasic(provider.clientSecret),
      {
        execute: ctx.config.allowInsecureIssuers ? [oidc.allowInsecureRequests] : [],
        timeout: ctx.config.providerTimeoutSeconds,
      },
    );
    const metadata = config.serverMetadata();
    if (!metadata.authorization_endpoint || !metadata.token_endpoint) throw new Error('no authorization code flow');
    if (metadata.response_types_supported && !metadata.response_types_supported.includes('code')) {
      throw new Error('the provider does not offer response_type code');
    }
    return config;
  } catch (error) {
    ctx.log.warn({ err: error, issuer: provider.issuer }, 'identity provider discovery failed');
    const options = failure === 'SSO_DISCOVERY_FAILED' ? { pointer: '/data/attributes/issuer' } : {};
    throw new AppError(failure, { ...options, detail: (error as Error).message, cause: error });
  }
}

function openSecret(ctx: Ctx, row: ProviderRow): string {
  return Buffer.from(ctx.secrets.open(row.client_secret_sealed, row.organization_id)).toString('utf8');
}

function settingsBody(row: ProviderRow | undefined) {
  return {
    data: {
      type: 'SsoSettings' as const,
      attributes: {
        configured: Boolean(row),
        issuer: row?.issuer ?? '',
        clientId: row?.client_id ?? '',
        clientSecretSet: Boolean(row),
        extraScopes: row?.extra_scopes ?? DEFAULT_EXTRA_SCOPES,
        jitEnabled: row?.jit_enabled ?? false,
        jitGroupId: row?.jit_group_id ?? null,
        ssoOnly: row?.sso_only ?? false,
        updatedAt: row?.updated_at.toISOString() ?? null,
      },
    },
  };
}

/** The SSO_* refusal an openid-client failure of the code exchange stands for. */
function exchangeRefusal(error: unknown): AppError {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  const claim = chain.map((e) => (e as { claim?: unknown }).claim).find((c) => typeof c === 'string');
  const text = chain.map((e) => String((e as Error).message ?? '')).join(' | ');
  if (claim === 'nonce' || /"nonce"/.test(text)) return new AppError('SSO_NONCE_MISMATCH', { cause: error });
  if (claim === 'iss' || /"iss"/.test(text)) return new AppError('SSO_ISSUER_MISMATCH', { cause: error });
  if (error instanceof oidc.ResponseBodyError && error.status >= 500) {
    return new AppError('SSO_PROVIDER_UNAVAILABLE', { cause: error });
  }
  if (error instanceof TypeError || (error as { name?: string }).name === 'TimeoutError') {
    return new AppError('SSO_PROVIDER_UNAVAILABLE', { cause: error });
  }
  return new AppError('SSO_SIGN_IN_FAILED', { cause: error });
}

/**
 * The user of the attempt's organization the provider vouched for: by the identity linked before, else by the
 * provider's verified e-mail (linking the identity), else a just-in-time user when that is on.
 */
async function identify(
  ctx: Ctx,
  provider: ProviderRow,
  claims: { sub: string; email?: unknown; email_verified?: unknown; name?: unknown },
  req: RequestContext,
): Promise<{ userId: string; how: 'identity' | 'email' | 'provisioned' }> {
  const organizationId = provider.organization_id;
  const now = ctx.clock.now();
  const linked = await ctx
    .db('sso_identities as i')
    .join('users as u', 'u.id', 'i.user_id')
    .where({ 'i.organization_id': organizationId, 'i.issuer': provider.issuer, 'i.subject': claims.sub })
    .where({ 'u.kind': 'person' })
    .first('i.id', 'u.id as user_id', 'u.status', 'u.organization_id');
  if (linked && linked.status !== 'deleted' && linked.organization_id === organizationId) {
    await ctx.db('sso_identities').where({ id: linked.id }).update({ last_used_at: now });
    return { userId: linked.user_id, how: 'identity' };
  }
  if (linked) await ctx.db('sso_identities').where({ id: linked.id }).delete(); // its user was deleted since

  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || claims.email_verified !== true) throw new AppError('SSO_EMAIL_NOT_VERIFIED');
  const matches: { id: string }[] = await ctx
    .db('users')
    .where({ organization_id: organizationId, kind: 'person' }) // never an API key's service user
    .whereNot({ status: 'deleted' })
    .whereRaw('lower(email) = lower(?)', [email])
    .select('id');
  const link = (trx: typeof ctx.db, userId: string) =>
    trx('sso_identities').insert({
      organization_id: organizationId,
      user_id: userId,
      issuer: provider.issuer,
      subject: claims.sub,
      created_at: now,
      last_used_at: now,
    });
  if (matches.length === 1) {
    await ctx.db.transaction(async (trx) => {
      await link(trx, matches[0]!.id);
      await ctx.oplog.append(trx, req, {
        action: 'sso.identity_linked',
        organizationId,
        actorUserId: matches[0]!.id,
        targetType: 'user',
        targetId: matches[0]!.id,
        details: { issuer: provider.issuer, subject: claims.sub },
      });
    });
    return { userId: matches[0]!.id, how: 'email' };
  }
  // Two users of the organization share the address: which one is meant is not ours to guess.
  if (matches.length > 1 || !provider.jit_enabled || !provider.jit_group_id) {
    throw new AppError('SSO_ACCOUNT_NOT_FOUND');
  }
  const groupId = provider.jit_group_id;
  const taken = await ctx.db('users').where({ login_id: email }).first('id');
  const loginId = taken || [...email].length > 100 ? `sso-${randomBytes(6).toString('hex')}` : email;
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 100) : email;
  const userId = await ctx.db.transaction(async (trx) => {
    const { id } = await ctx.users.provision(trx, { organizationId, loginId, name, email, groupId, via: 'sso' }, req);
    await link(trx, id);
    return id;
  });
  return { userId, how: 'provisioned' };
}

/**
 * Single sign-on with an OpenID Connect provider per organization (authorization code with PKCE, state and nonce
 * checked), users matched within the organization by linked identity or verified e-mail, optional just-in-time
 * users, and an "SSO only" switch that refuses passwords to everyone but administrators and the owner.
 */
export const ssoPlugin = definePlugin<SsoConfig>({
  name: 'sso',
  feature: 'sso',
  migrations: new URL('./migrations/', import.meta.url),
  config: {
    schema: {
      type: 'object',
      properties: {
        allowInsecureIssuers: { type: 'boolean', default: false },
        attemptTtlSeconds: { type: 'integer', minimum: 60, maximum: 3600, default: 600 },
        termsHoldSeconds: { type: 'integer', minimum: 30, maximum: 1800, default: 300 },
        providerTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 60, default: 10 },
      },
    },
    read: (_config, slice) => ({
      allowInsecureIssuers: slice.ALLOW_INSECURE_ISSUERS === 'true',
      attemptTtlSeconds: slice.ATTEMPT_TTL_SECONDS,
      termsHoldSeconds: slice.TERMS_HOLD_SECONDS,
      providerTimeoutSeconds: slice.PROVIDER_TIMEOUT_SECONDS,
    }),
  },

  async start(ctx) {
    if (ctx.config.allowInsecureIssuers) ctx.log.warn('sso: http:// identity providers are allowed (tests only)');
  },

  guards: {
    async 'auth.password_sign_in'(event, ctx) {
      if (event.isAdmin) return; // administrators and the owner keep the password fallback
      const row = await ctx.db('sso_providers').where({ organization_id: event.organizationId }).first('sso_only');
      if (row?.sso_only) throw new AppError('SSO_REQUIRED', { params: { orgCode: event.organizationCode } });
    },
  },

  routes(router, ctx) {
    const admin = { permission: 'organization:manage' } as const;
    const providerOf = (organizationId: string) =>
      ctx.db('sso_providers').where({ organization_id: organizationId }).first<ProviderRow | undefined>();

    router.operation('getSsoSettings', admin, async ({ principal }) => ({
      body: settingsBody(await providerOf(principal.organizationId)),
    }));

    router.operation('updateSsoSettings', admin, async ({ principal, body, req }) => {
      const input = body.data.attributes;
      const organizationId = principal.organizationId;
      const current = await providerOf(organizationId);
      const issuer = input.issuer.trim().replace(/\/$/, '');
      const extraScopes = (input.extraScopes ?? DEFAULT_EXTRA_SCOPES).split(/\s+/).filter(Boolean);
      const scopes = [...new Set(extraScopes.filter((s) => !BASE_SCOPES.split(' ').includes(s)))].join(' ');
      const jitEnabled = input.jitEnabled ?? false;
      const jitGroupId = input.jitGroupId ?? null;
      if (jitGroupId) {
        const group = await ctx.db('groups').where({ id: jitGroupId, organization_id: organizationId }).first('id');
        if (!group) throw new AppError('REFERENCE_NOT_FOUND', { pointer: '/data/attributes/jitGroupId' });
      }
      if (jitEnabled && !jitGroupId) {
        throw new AppError('SSO_JIT_GROUP_REQUIRED', { pointer: '/data/attributes/jitGroupId' });
      }
      const clientSecret = input.clientSecret ?? (current ? openSecret(ctx, current) : null);
      if (!clientSecret) {
        throw new AppError('SSO_CLIENT_SECRET_REQUIRED', { pointer: '/data/attributes/clientSecret' });
      }
      let url: URL;
      try {
        url = new URL(issuer);
        if (!/^https?:$/.test(url.protocol)) throw new Error('not http(s)');
      } catch {
        throw new AppError('SSO_DISCOVERY_FAILED', { pointer: '/data/attributes/issuer' });
      }
      // Network first, outside any transaction; the issuer as its discovery document names it.
      const discovered = await discover(
        ctx,
        { issuer: url.href.replace(/\/$/, ''), clientId: input.clientId, clientSecret },
        'SSO_DISCOVERY_FAILED',
      );
      const now = ctx.clock.now();
      const row = {
        organization_id: organizationId,
        issuer: discovered.serverMetadata().issuer,
        client_id: input.clientId,
        client_secret_sealed: Buffer.from(ctx.secrets.seal(Buffer.from(clientSecret, 'utf8'), organizationId)),
        extra_scopes: scopes,
        jit_enabled: jitEnabled,
        jit_group_id: jitGroupId,
        sso_only: input.ssoOnly ?? false,
        updated_at: now,
      };
      await ctx.db.transaction(async (trx) => {
        await trx('sso_providers')
          .insert({ ...row, created_at: now })
          .onConflict('organization_id')
          .merge();
        // Identities belong to a provider: a new issuer starts over with e-mail matching.
        if (current && current.issuer !== row.issuer) {
          await trx('sso_identities').where({ organization_id: organizationId }).delete();
        }
        await ctx.oplog.append(trx, req, {
          action: 'sso.settings_updated',
          organizationId,
          actorUserId: principal.userId,
          targetType: 'organization',
          targetId: organizationId,
          details: {
            issuer: row.issuer,
            clientId: row.client_id,
            clientSecretChanged: input.clientSecret !== undefined,
            extraScopes: scopes,
            jitEnabled,
            jitGroupId,
            ssoOnly: row.sso_only,
          },
        });
      });
      return { body: settingsBody((await providerOf(organizationId))!) };
    });

    router.operation('deleteSsoSettings', admin, async ({ principal, req }) => {
      await ctx.db.transaction(async (trx) => {
        const removed = await trx('sso_providers').where({ organization_id: principal.organizationId }).delete();
        await trx('sso_identities').where({ organization_id: principal.organizationId }).delete();
        await trx('sso_attempts').where({ organization_id: principal.organizationId }).delete();
        if (removed > 0) {
          await ctx.oplog.append(trx, req, {
            action: 'sso.settings_deleted',
            organizationId: principal.organizationId,
            actorUserId: principal.userId,
            targetType: 'organization',
            targetId: principal.organizationId,
          });
        }
      });
      return { status: 204 };
    });

    router.operation('startSsoSignIn', { rateLimit: [perIp('ssoStartPerIp')] }, async ({ body }) => {
      const { organizationCode, redirectUri } = body.data.attributes;
      const organization = await ctx
        .db('organizations')
        .where({ code: organizationCode.trim() })
        .first('id', 'plan', 'options');
      const provider = organization ? await providerOf(organization.id) : undefined;
      if (!organization || !provider) throw new AppError('SSO_NOT_CONFIGURED');
      assertPlanFeature({ plan: organization.plan, options: organization.options ?? [] }, 'sso');
      const config = await discover(
        ctx,
        { issuer: provider.issuer, clientId: provider.client_id, clientSecret: openSecret(ctx, provider) },
        'SSO_PROVIDER_UNAVAILABLE',
      );
      const now = ctx.clock.now();
      await ctx.db('sso_attempts').where('expires_at', '<', now).delete();
      const id = randomUUID();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      const binding = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + ctx.config.attemptTtlSeconds * 1000);
      await ctx.db('sso_attempts').insert({
        id,
        organization_id: organization.id,
        state_hash: sha256(state),
        binding_hash: sha256(binding),
        nonce,
        verifier_sealed: Buffer.from(ctx.secrets.seal(Buffer.from(verifier, 'utf8'), id)),
        issuer: provider.issuer,
        redirect_uri: redirectUri,
        expires_at: expiresAt,
        created_at: now,
      });
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: [BASE_SCOPES, provider.extra_scopes].filter(Boolean).join(' '),
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return {
        status: 201,
        body: {
          data: {
            type: 'SsoSignIn',
            attributes: { authorizationUrl: authorizationUrl.href, binding, expiresAt: expiresAt.toISOString() },
          },
        },
      };
    });

    router.operation('completeSsoSignIn', { rateLimit: [perIp('ssoCallbackPerIp')] }, async ({ body, req }) => {
      const { state, code, iss, binding, acceptTermId, refreshTokenDelivery } = body.data.attributes;
      const now = ctx.clock.now();
      const attempt = await ctx
        .db('sso_attempts')
        .where({ state_hash: sha256(state) })
        .first<AttemptRow | undefined>();
      const bound = attempt && timingSafeEqual(sha256(binding), attempt.binding_hash);
      if (!attempt || !bound || attempt.expires_at <= now) throw new AppError('SSO_STATE_INVALID');

      const finish = async (userId: string, details: Record<string, unknown>) => {
        try {
          const pair = await ctx.auth.signInWithIdentity(
            { userId, method: 'sso', acceptTermId, details: { issuer: attempt.issuer, ...details } },
            req,
          );
          await ctx.db('sso_attempts').where({ id: attempt.id }).update({ status: 'done', verified_user_id: null });
          return { status: 201, ...authResult(pair, refreshTokenDelivery) };
        } catch (error) {
          if (error instanceof AppError && error.code === 'TERMS_NOT_AGREED') {
            // The provider already vouched: the page asks for the consent and calls again without a new round trip.
            await ctx
              .db('sso_attempts')
              .where({ id: attempt.id })
              .update({
                status: 'awaiting_terms',
                verified_user_id: userId,
                expires_at: new Date(now.getTime() + ctx.config.termsHoldSeconds * 1000),
              });
          } else {
            await ctx.db('sso_attempts').where({ id: attempt.id }).update({ status: 'done', verified_user_id: null });
          }
          throw error;
        }
      };

      if (attempt.status === 'awaiting_terms' && !code && attempt.verified_user_id) {
        return finish(attempt.verified_user_id, { subject: attempt.verified_subject });
      }
      if (attempt.status !== 'started' || !code) throw new AppError('SSO_STATE_INVALID');
      // One use: whoever flips the status first exchanges the code.
      const claimed = await ctx
        .db('sso_attempts')
        .where({ id: attempt.id, status: 'started' })
        .update({ status: 'exchanged' });
      if (claimed !== 1) throw new AppError('SSO_STATE_INVALID');

      const organization = await ctx
        .db('organizations')
        .where({ id: attempt.organization_id })
        .first('id', 'plan', 'options');
      assertPlanFeature({ plan: organization.plan, options: organization.options ?? [] }, 'sso');
      const provider = await providerOf(attempt.organization_id);
      // Settings changed (or removed) since the start: this attempt no longer describes them.
      if (!provider || provider.issuer !== attempt.issuer) throw new AppError('SSO_STATE_INVALID');
      const refuse = async (error: AppError) => {
        await ctx.oplog.record(ctx.db, req, {
          action: 'sso.sign_in_refused',
          organizationId: attempt.organization_id,
          details: { reason: error.code, issuer: provider.issuer },
        });
        return error;
      };
      if (iss !== undefined && iss !== provider.issuer) throw await refuse(new AppError('SSO_ISSUER_MISMATCH'));

      const config = await discover(
        ctx,
        { issuer: provider.issuer, clientId: provider.client_id, clientSecret: openSecret(ctx, provider) },
        'SSO_PROVIDER_UNAVAILABLE',
      );
      const callbackUrl = new URL(attempt.redirect_uri);
      callbackUrl.searchParams.set('code', code);
      callbackUrl.searchParams.set('state', state);
      if (iss !== undefined) callbackUrl.searchParams.set('iss', iss);
      let claims: { sub: string; email?: unknown; email_verified?: unknown; name?: unknown };
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: Buffer.from(ctx.secrets.open(attempt.verifier_sealed, attempt.id)).toString('utf8'),
          expectedState: state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims()!;
        claims = idToken;
        // Providers that keep the ID token small (the standard's default for scope claims) answer at userinfo.
        if (idToken.email === undefined) {
          claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), sub: idToken.sub };
        }
      } catch (error) {
        ctx.log.info({ err: error }, 'sso code exchange refused');
        throw await refuse(exchangeRefusal(error));
      }
      let identified: Awaited<ReturnType<typeof identify>>;
      try {
        identified = await identify(ctx, provider, claims, req);
      } catch (error) {
        if (error instanceof AppError) throw await refuse(error);
        throw error;
      }
      await ctx.db('sso_attempts').where({ id: attempt.id }).update({ verified_subject: claims.sub });
      return finish(identified.userId, { subject: claims.sub, matchedBy: identified.how });
    });
  },
});
