import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plugin } from '../../core/plugins/index.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import {
  currentTermsId,
  insertUser,
  memberToken,
  PASSWORD,
  signedInOwner,
  signInBody,
} from '../../tests/helpers/accounts.ts';
import { createGroup } from '../../tests/helpers/org-admin.ts';
import { OidcTestProvider } from '../../tests/peers/oidc-provider.ts';
import { ssoPlugin } from './index.ts';

const ONLY_SSO = [ssoPlugin as Plugin<never>];
const PAGE = 'https://keiyaku.test/';
const SSO_ENV = { KEIYAKU_PLUGIN_SSO_ALLOW_INSECURE_ISSUERS: 'true' };

const settings = (attributes: Record<string, unknown>) => ({ data: { type: 'SsoSettings', attributes } });
const errorCode = (body: any) => body.errors?.[0]?.code;

let serial = 0;
const subject = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

describe('sso plugin', () => {
  let app: TestApp;
  let idp: OidcTestProvider;
  let otherIdp: OidcTestProvider;

  beforeAll(async () => {
    idp = await OidcTestProvider.start([
      { clientId: 'keiyaku-a', clientSecret: 'secret-a-0123456789', redirectUris: [PAGE] },
      { clientId: 'keiyaku-c', clientSecret: 'secret-c-0123456789', redirectUris: [PAGE] },
    ]);
    otherIdp = await OidcTestProvider.start([
      { clientId: 'keiyaku-b', clientSecret: 'secret-b-0123456789', redirectUris: [PAGE] },
    ]);
    app = await startApp({ env: SSO_ENV, plugins: ONLY_SSO });
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
    await otherIdp?.close();
  });

  /** A professional organization whose owner registered `provider` with `clientId`. */
  async function configuredOrganization(provider: OidcTestProvider, clientId: string, extra = {}) {
    const owner = await signedInOwner(app, { plan: 'professional' });
    const secret = `secret-${clientId.slice(-1)}-0123456789`;
    const saved = await app.api.call('updateSsoSettings', {
      token: owner.token,
      body: settings({ issuer: provider.issuer, clientId, clientSecret: secret, ...extra }),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { code } = await app.service.deps.knex('organizations').where({ id: owner.organizationId }).first('code');
    return { ...owner, code: code as string };
  }

  async function start(code: string) {
    const response = await app.api.call('startSsoSignIn', {
      body: { data: { type: 'SsoSignIn', attributes: { organizationCode: code, redirectUri: PAGE } } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data.attributes as { authorizationUrl: string; binding: string };
  }

  function callback(attributes: Record<string, unknown>) {
    return app.api.call('completeSsoSignIn', { body: { data: { type: 'SsoSignIn', attributes } } });
  }

  /** Starts at the organization code, signs in at the provider as `login`, and posts the answer back. */
  async function signInThrough(provider: OidcTestProvider, code: string, login: string, extra = {}) {
    const { authorizationUrl, binding } = await start(code);
    const back = await provider.signIn(authorizationUrl, login);
    const params = Object.fromEntries(back.searchParams);
    const response = await callback({ state: params.state, code: params.code, iss: params.iss, binding, ...extra });
    return { response, state: params.state!, binding, back };
  }

  describe('settings', () => {
    it('are for administrators of a professional organization; the secret is write-only and sealed', async () => {
      const owner = await signedInOwner(app, { plan: 'professional' });
      const empty = await app.api.call('getSsoSettings', { token: owner.token });
      expect(empty.body.data.attributes).toMatchObject({ configured: false, extraScopes: 'email profile' });

      const member = await memberToken(app, owner.organizationId);
      for (const [op, body] of [
        ['getSsoSettings', undefined],
        ['updateSsoSettings', settings({ issuer: idp.issuer, clientId: 'keiyaku-a', clientSecret: 'x' })],
        ['deleteSsoSettings', undefined],
      ] as const) {
        const refused = await app.api.call(op, { token: member, body });
        expect([op, refused.status, errorCode(refused.body)]).toEqual([op, 403, 'FUNCTION_NOT_PERMITTED']);
      }

      const standard = await signedInOwner(app, { plan: 'standard' });
      const below = await app.api.call('getSsoSettings', { token: standard.token });
      expect(below.status).toBe(403);
      expect(below.body.errors[0]).toMatchObject({
        code: 'PLAN_FEATURE_UNAVAILABLE',
        meta: { params: { feature: 'sso', plan: 'professional' } },
      });

      const noSecret = await app.api.call('updateSsoSettings', {
        token: owner.token,
        body: settings({ issuer: idp.issuer, clientId: 'keiyaku-a' }),
      });
      expect(errorCode(noSecret.body)).toBe('SSO_CLIENT_SECRET_REQUIRED');
      const unreachable = await app.api.call('updateSsoSettings', {
        token: owner.token,
        body: settings({ issuer: 'http://127.0.0.1:9/nowhere', clientId: 'keiyaku-a', clientSecret: 'x' }),
      });
      expect(unreachable.status).toBe(422);
      expect(unreachable.body.errors[0]).toMatchObject({
        code: 'SSO_DISCOVERY_FAILED',
        source: { pointer: '/data/attributes/issuer' },
      });
      const foreign = await signedInOwner(app, { plan: 'professional' });
      const foreignGroup = await createGroup(app, foreign.token, '他社グループ');
      const foreignRef = await app.api.call('updateSsoSettings', {
        token: owner.token,
        body: settings({
          issuer: idp.issuer,
          clientId: 'keiyaku-a',
          clientSecret: 'secret-a-0123456789',
          jitEnabled: true,
          jitGroupId: foreignGroup,
        }),
      });
      expect(errorCode(foreignRef.body)).toBe('REFERENCE_NOT_FOUND');

      const saved = await app.api.call('updateSsoSettings', {
        token: owner.token,
        body: settings({ issuer: `${idp.issuer}/`, clientId: 'keiyaku-a', clientSecret: 'secret-a-0123456789' }),
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data.attributes).toMatchObject({
        configured: true,
        issuer: idp.issuer,
        clientId: 'keiyaku-a',
        clientSecretSet: true,
        ssoOnly: false,
      });
      expect(JSON.stringify(saved.body)).not.toContain('secret-a-0123456789');
      const row = await app.service.deps.knex('sso_providers').where({ organization_id: owner.organizationId }).first();
      expect(Buffer.from(row.client_secret_sealed).toString('latin1')).not.toContain('secret-a');
      // Left out later, the stored secret is kept (and still works: discovery needs none, the exchange does).
      const kept = await app.api.call('updateSsoSettings', {
        token: owner.token,
        body: settings({ issuer: idp.issuer, clientId: 'keiyaku-a', extraScopes: 'email' }),
      });
      expect(kept.body.data.attributes).toMatchObject({ clientSecretSet: true, extraScopes: 'email' });
      const log = await app.service.deps
        .knex('operation_logs')
        .where({ action: 'sso.settings_updated', organization_id: owner.organizationId })
        .orderBy('id', 'desc')
        .first('details');
      expect(log.details).toMatchObject({ clientSecretChanged: false, extraScopes: 'email' });
      expect(JSON.stringify(log.details)).not.toContain('secret-a');

      const removed = await app.api.call('deleteSsoSettings', { token: owner.token });
      expect(removed.status).toBe(204);
      expect((await app.api.call('getSsoSettings', { token: owner.token })).body.data.attributes.configured).toBe(
        false,
      );
    });
  });

  describe('sign-in', () => {
    it('links a user by verified e-mail, asks the terms once, then signs in by the linked identity', async () => {
      const org = await configuredOrganization(idp, 'keiyaku-a');
      const loginId = await insertUser(app, org.organizationId);
      const user = await app.service.deps.knex('users').where({ login_id: loginId }).first('id', 'email');
      const sub = subject('alice');
      idp.accounts.set(sub, { email: user.email.toUpperCase(), emailVerified: true, name: 'Alice' });

      const { authorizationUrl, binding } = await start(org.code);
      const url = new URL(authorizationUrl);
      expect(url.searchParams.get('scope')).toBe('openid offline_access email profile');
      expect(url.searchParams.get('redirect_uri')).toBe(PAGE);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('nonce')).toBeTruthy();
      const back = await idp.signIn(authorizationUrl, sub);
      const { state, code, iss } = Object.fromEntries(back.searchParams);
      expect(back.origin + back.pathname).toBe(PAGE);

      const owed = await callback({ state, code, iss, binding });
      expect(owed.status).toBe(422);
      expect(owed.body.errors[0]).toMatchObject({
        code: 'TERMS_NOT_AGREED',
        meta: { params: { termsConsent: 'first' } },
      });
      // The page asks for the consent and finishes without going back to the provider.
      const done = await callback({ state, binding, acceptTermId: await currentTermsId(app) });
      expect(done.status, JSON.stringify(done.body)).toBe(201);
      const token = done.body.data.attributes.authorizationToken;
      expect(done.body.data.attributes.refreshToken).toBeTruthy();
      const me = await app.api.call('getCurrentUser', { token });
      expect(me.body.data.id).toBe(user.id);
      const signedIn = await app.service.deps
        .knex('operation_logs')
        .where({ action: 'auth.signed_in', actor_user_id: user.id })
        .orderBy('id', 'desc')
        .first('details');
      expect(signedIn.details).toMatchObject({ method: 'sso', issuer: idp.issuer, subject: sub });

      // A state works once.
      const replay = await callback({ state, code, iss, binding });
      expect([replay.status, errorCode(replay.body)]).toEqual([400, 'SSO_STATE_INVALID']);

      // Next time the linked identity decides, whatever the provider now says the address is.
      idp.accounts.set(sub, { email: 'changed@example.org', emailVerified: false });
      const again = await signInThrough(idp, org.code, sub, { refreshTokenDelivery: 'cookie' });
      expect(again.response.status, JSON.stringify(again.response.body)).toBe(201);
      expect(again.response.body.data.attributes.refreshToken).toBeUndefined();
      expect(again.response.headers.get('set-cookie')).toContain('keiyaku_refresh_token=');
      const byIdentity = await app.service.deps
        .knex('operation_logs')
        .where({ action: 'auth.signed_in', actor_user_id: user.id })
        .orderBy('id', 'desc')
        .first('details');
      expect(byIdentity.details).toMatchObject({ method: 'sso', matchedBy: 'identity' });
      const linked = await app.service.deps
        .knex('operation_logs')
        .where({ action: 'sso.identity_linked', target_id: user.id })
        .first('details');
      expect(linked.details).toMatchObject({ issuer: idp.issuer, subject: sub });
      const identities = await app.service.deps.knex('sso_identities').where({ user_id: user.id });
      expect(identities).toHaveLength(1);
      expect(identities[0]).toMatchObject({ issuer: idp.issuer, subject: sub, organization_id: org.organizationId });
    }, 60_000);

    it('refuses a wrong, expired or unbound state and a nonce that is not the attempt’s', async () => {
      const org = await configuredOrganization(idp, 'keiyaku-a');
      const loginId = await insertUser(app, org.organizationId);
      const user = await app.service.deps.knex('users').where({ login_id: loginId }).first('email');
      const sub = subject('bob');
      idp.accounts.set(sub, { email: user.email, emailVerified: true });

      const wrong = await callback({ state: 'not-a-state', code: 'x', binding: 'y' });
      expect([wrong.status, errorCode(wrong.body)]).toEqual([400, 'SSO_STATE_INVALID']);
      expect(wrong.body.errors[0].meta.messages.ja).toContain('最初からやり直してください');

      // Another browser (no binding secret of this attempt) cannot complete it.
      const { authorizationUrl, binding } = await start(org.code);
      const back = await idp.signIn(authorizationUrl, sub);
      const params = Object.fromEntries(back.searchParams);
      const unbound = await callback({ ...params, binding: `${binding}x` });
      expect(errorCode(unbound.body)).toBe('SSO_STATE_INVALID');

      // Expired: 10 minutes at most.
      const late = await start(org.code);
      const lateBack = Object.fromEntries((await idp.signIn(late.authorizationUrl, sub)).searchParams);
      app.clock.advance(11 * 60_000);
      try {
        const expired = await callback({ ...lateBack, binding: late.binding });
        expect(errorCode(expired.body)).toBe('SSO_STATE_INVALID');
      } finally {
        app.clock.advance(-11 * 60_000);
      }

      // The ID token must carry the attempt's nonce: an authorization request with another one is refused.
      const attempt = await start(org.code);
      const tampered = new URL(attempt.authorizationUrl);
      tampered.searchParams.set('nonce', 'a-nonce-of-another-request');
      const tamperedBack = Object.fromEntries((await idp.signIn(tampered.href, sub)).searchParams);
      const nonce = await callback({ ...tamperedBack, binding: attempt.binding });
      expect([nonce.status, errorCode(nonce.body)]).toEqual([400, 'SSO_NONCE_MISMATCH']);
      const refusal = await app.service.deps
        .knex('operation_logs')
        .where({ action: 'sso.sign_in_refused', organization_id: org.organizationId })
        .orderBy('id', 'desc')
        .first('details');
      expect(refusal.details).toMatchObject({ reason: 'SSO_NONCE_MISMATCH' });
      // The unused attempt (wrong binding) still works in the browser that started it.
      const ok = await callback({ ...params, binding, acceptTermId: await currentTermsId(app) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    }, 60_000);

    it('refuses an unverified e-mail, a user of another organization, another organization’s IdP and a deactivated user', async () => {
      const orgA = await configuredOrganization(idp, 'keiyaku-a');
      const orgB = await configuredOrganization(otherIdp, 'keiyaku-b');

      const unverified = subject('carol');
      const carolLogin = await insertUser(app, orgA.organizationId);
      const carol = await app.service.deps.knex('users').where({ login_id: carolLogin }).first('email');
      idp.accounts.set(unverified, { email: carol.email, emailVerified: false });
      const notVerified = await signInThrough(idp, orgA.code, unverified);
      expect([notVerified.response.status, errorCode(notVerified.response.body)]).toEqual([
        422,
        'SSO_EMAIL_NOT_VERIFIED',
      ]);

      // Dave is a user of organization B only: signing in at A's code finds nobody (and no JIT there).
      const daveLogin = await insertUser(app, orgB.organizationId);
      const dave = await app.service.deps.knex('users').where({ login_id: daveLogin }).first('email');
      const daveSub = subject('dave');
      idp.accounts.set(daveSub, { email: dave.email, emailVerified: true });
      const elsewhere = await signInThrough(idp, orgA.code, daveSub);
      expect([elsewhere.response.status, errorCode(elsewhere.response.body)]).toEqual([403, 'SSO_ACCOUNT_NOT_FOUND']);

      // An answer of B's provider brought back to an attempt of A's code.
      const attemptA = await start(orgA.code);
      const stateA = new URL(attemptA.authorizationUrl).searchParams.get('state')!;
      const attemptB = await start(orgB.code);
      const atB = new URL(attemptB.authorizationUrl);
      atB.searchParams.set('state', stateA);
      otherIdp.accounts.set(daveSub, { email: dave.email, emailVerified: true });
      const fromB = Object.fromEntries((await otherIdp.signIn(atB.href, daveSub)).searchParams);
      expect(fromB.iss).toBe(otherIdp.issuer);
      const mixed = await callback({ ...fromB, binding: attemptA.binding });
      expect([mixed.status, errorCode(mixed.body)]).toEqual([400, 'SSO_ISSUER_MISMATCH']);

      const erinLogin = await insertUser(app, orgA.organizationId, { status: 'deactivated' });
      const erin = await app.service.deps.knex('users').where({ login_id: erinLogin }).first('email');
      const erinSub = subject('erin');
      idp.accounts.set(erinSub, { email: erin.email, emailVerified: true });
      const deactivated = await signInThrough(idp, orgA.code, erinSub);
      expect([deactivated.response.status, errorCode(deactivated.response.body)]).toEqual([403, 'ACCOUNT_DEACTIVATED']);
      expect(deactivated.response.body.errors[0].meta.messages.en).toContain('deactivated');
    }, 90_000);

    it('never matches an API key’s service user by its e-mail address', async () => {
      const org = await configuredOrganization(idp, 'keiyaku-a');
      const serviceLogin = await insertUser(app, org.organizationId, { kind: 'service' });
      const service = await app.service.deps.knex('users').where({ login_id: serviceLogin }).first('email');
      const sub = subject('service');
      idp.accounts.set(sub, { email: service.email, emailVerified: true });
      const refused = await signInThrough(idp, org.code, sub);
      expect([refused.response.status, errorCode(refused.response.body)]).toEqual([403, 'SSO_ACCOUNT_NOT_FOUND']);
    }, 60_000);

    it('creates a just-in-time user in the chosen group, with no usable password, logged', async () => {
      const owner = await signedInOwner(app, { plan: 'professional' });
      const group = await createGroup(app, owner.token, 'SSO新規');
      const saved = await app.api.call('updateSsoSettings', {
        token: owner.token,
        body: settings({
          issuer: idp.issuer,
          clientId: 'keiyaku-c',
          clientSecret: 'secret-c-0123456789',
          jitEnabled: true,
          jitGroupId: group,
        }),
      });
      expect(saved.body.data.attributes).toMatchObject({ jitEnabled: true, jitGroupId: group });
      const { code } = await app.service.deps.knex('organizations').where({ id: owner.organizationId }).first('code');
      const sub = subject('frank');
      const email = `${sub}@jit.example.com`;
      idp.accounts.set(sub, { email, emailVerified: true, name: '新規 太郎' });
      const first = await signInThrough(idp, code, sub, { acceptTermId: await currentTermsId(app) });
      expect(first.response.status, JSON.stringify(first.response.body)).toBe(201);

      const { knex } = app.service.deps;
      const user = await knex('users').where({ organization_id: owner.organizationId, email }).first();
      expect(user).toMatchObject({ login_id: email, name: '新規 太郎', is_admin: false, must_change_password: false });
      expect(user.password_hash.startsWith('$argon2')).toBe(false);
      expect(await knex('group_members').where({ user_id: user.id }).pluck('group_id')).toEqual([group]);
      const created = await knex('operation_logs').where({ action: 'user.created', target_id: user.id }).first();
      expect(created.details).toMatchObject({ via: 'sso', groupIds: [group] });
      const password = await app.api.call('signIn', { body: signInBody(email, PASSWORD) });
      expect(password.status).toBe(401);
    }, 60_000);

    it('makes SSO the only way in for users but keeps the administrators’ password', async () => {
      const org = await configuredOrganization(idp, 'keiyaku-a', { ssoOnly: true });
      const member = await insertUser(app, org.organizationId);
      const refused = await app.api.call('signIn', { body: signInBody(member, PASSWORD, await currentTermsId(app)) });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0]).toMatchObject({ code: 'SSO_REQUIRED', meta: { params: { orgCode: org.code } } });
      // A wrong password still says only that: the SSO rule is told after the password proved right.
      const wrong = await app.api.call('signIn', { body: signInBody(member, 'wrong-password1') });
      expect(errorCode(wrong.body)).toBe('INVALID_CREDENTIALS');
      const admin = await insertUser(app, org.organizationId, { is_admin: true });
      const adminIn = await app.api.call('signIn', { body: signInBody(admin, PASSWORD, await currentTermsId(app)) });
      expect(adminIn.status).toBe(201);
      expect((await app.api.call('signIn', { body: signInBody(org.loginId, PASSWORD) })).status).toBe(201);
    });

    it('answers SSO_NOT_CONFIGURED for an unknown code or one without a provider, and refuses below professional', async () => {
      const start = (organizationCode: string) =>
        app.api.call('startSsoSignIn', {
          body: { data: { type: 'SsoSignIn', attributes: { organizationCode, redirectUri: PAGE } } },
        });
      const unknown = await start('no-such-organization');
      expect([unknown.status, errorCode(unknown.body)]).toEqual([404, 'SSO_NOT_CONFIGURED']);
      const plain = await signedInOwner(app, { plan: 'professional' });
      const { code } = await app.service.deps.knex('organizations').where({ id: plain.organizationId }).first('code');
      expect(errorCode((await start(code)).body)).toBe('SSO_NOT_CONFIGURED');
      const org = await configuredOrganization(idp, 'keiyaku-a');
      await app.service.deps.knex('organizations').where({ id: org.organizationId }).update({ plan: 'standard' });
      const downgraded = await start(org.code);
      expect([downgraded.status, errorCode(downgraded.body)]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
      const badRedirect = await app.api.call('startSsoSignIn', {
        body: { data: { type: 'SsoSignIn', attributes: { organizationCode: org.code, redirectUri: `${PAGE}path` } } },
      });
      expect(badRedirect.status).toBe(422);
    });
  });
});

describe('sso plugin turned off (KEIYAKU_PLUGINS_DISABLED=sso)', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startApp({ env: { ...SSO_ENV, KEIYAKU_PLUGINS_DISABLED: 'sso' }, plugins: ONLY_SSO });
  });
  afterAll(() => off?.close());

  it('answers its operations 403, leaves it out of /me, and password sign-in works as before', async () => {
    const owner = await signedInOwner(off, { plan: 'professional' });
    const startOff = await off.api.call('startSsoSignIn', {
      body: { data: { type: 'SsoSignIn', attributes: { organizationCode: 'x', redirectUri: PAGE } } },
    });
    expect([startOff.status, errorCode(startOff.body)]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
    const settingsOff = await off.api.call('getSsoSettings', { token: owner.token });
    expect([settingsOff.status, errorCode(settingsOff.body)]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
    const me = await off.api.call('getCurrentUser', { token: owner.token });
    expect(me.body.data.attributes.organization.features).not.toContain('sso');
    expect(me.body.data.attributes.organization.features).toContain('ipRestriction');
    const member = await insertUser(off, owner.organizationId);
    const signIn = await off.api.call('signIn', { body: signInBody(member, PASSWORD, await currentTermsId(off)) });
    expect(signIn.status).toBe(201);
  });
});

describe('sso rate limits (production budgets)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp({ env: { ...SSO_ENV, KEIYAKU_RATE_LIMIT_SCALE: '1' }, plugins: ONLY_SSO });
  });
  afterAll(() => limited?.close());

  it('allows 30 starts and 30 failed callbacks per address in 15 minutes, then 429 with Retry-After', async () => {
    const from = { 'x-forwarded-for': '198.51.100.77' };
    const startOnce = () =>
      limited.api.call('startSsoSignIn', {
        headers: from,
        body: { data: { type: 'SsoSignIn', attributes: { organizationCode: 'unknown-code', redirectUri: PAGE } } },
      });
    for (let i = 0; i < 30; i += 1) expect((await startOnce()).status).toBe(404);
    const tooMany = await startOnce();
    expect([tooMany.status, errorCode(tooMany.body)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(0);

    const callbackOnce = () =>
      limited.api.call('completeSsoSignIn', {
        headers: from,
        body: { data: { type: 'SsoSignIn', attributes: { state: 'guess', code: 'guess', binding: 'guess' } } },
      });
    for (let i = 0; i < 30; i += 1) expect((await callbackOnce()).status).toBe(400);
    const guessing = await callbackOnce();
    expect([guessing.status, errorCode(guessing.body)]).toEqual([429, 'TOO_MANY_REQUESTS']);
    // Another address is not affected.
    const elsewhere = await limited.api.call('completeSsoSignIn', {
      headers: { 'x-forwarded-for': '198.51.100.78' },
      body: { data: { type: 'SsoSignIn', attributes: { state: 'guess', code: 'guess', binding: 'guess' } } },
    });
    expect(errorCode(elsewhere.body)).toBe('SSO_STATE_INVALID');
  });
});
