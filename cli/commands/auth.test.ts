import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSession, withApi } from '../api.ts';
import { CredentialStore, tokenExpiry } from '../credentials.ts';
import { EXIT } from '../errors.ts';
import { type TestApp, startApp } from '../../tests/helpers/app.ts';
import { signUpOrganization } from '../../tests/helpers/accounts.ts';
import { runCli, spawnCli } from '../../tests/helpers/cli.ts';

let app: TestApp;
let owner: Awaited<ReturnType<typeof signUpOrganization>>;
let configDir: string;

const env = () => ({ KEIYAKU_CONFIG_DIR: configDir, KEIYAKU_URL: app.url, KEIYAKU_LOGIN_ID: '', KEIYAKU_PASSWORD: '' });
const stored = () => new CredentialStore({ KEIYAKU_CONFIG_DIR: configDir }).get(app.url);
const login = () =>
  runCli(['login', '--login-id', owner.loginId, '--password', owner.password], { ...env(), LANG: 'en_US.UTF-8' });

beforeAll(async () => {
  app = await startApp();
  owner = await signUpOrganization(app);
});

afterAll(async () => {
  await app?.close();
});

afterEach(() => {
  vi.useRealTimers();
  rmSync(configDir, { recursive: true, force: true });
});

// Each test starts without credentials.
beforeEach(() => {
  configDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-cli-config-'));
});

describe('keiyaku login / logout and the CLI API client', () => {
  it('login stores the token pair under the server URL in credentials.json, readable by the owner only', async () => {
    const run = await login();
    expect(run).toMatchObject({ exitCode: 0, err: '' });
    expect(run.out).toContain(`Signed in to ${app.url} as ${owner.loginId}`);
    const file = path.join(configDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const content = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(content)).toEqual([app.url]);
    expect(content[app.url].authorizationToken).toMatch(/^ey/);
    const me = await app.api.call('getCurrentUser', { token: content[app.url].authorizationToken });
    expect(me.status).toBe(200);
  });

  it('login reads the user ID and password from KEIYAKU_LOGIN_ID and KEIYAKU_PASSWORD', async () => {
    const run = await runCli(['login'], {
      ...env(),
      KEIYAKU_LOGIN_ID: owner.loginId,
      KEIYAKU_PASSWORD: owner.password,
    });
    expect(run.exitCode).toBe(0);
    expect(stored()).not.toBeNull();
  });

  it('a failed sign-in prints the API code and its message in the language of LANG and exits 3', async () => {
    const english = await runCli(['login', '--login-id', owner.loginId, '--password', 'wrong-pass1'], {
      ...env(),
      LANG: 'en_US.UTF-8',
    });
    expect(english.exitCode).toBe(EXIT.notSignedIn);
    expect(english.err).toContain('INVALID_CREDENTIALS: Login failed. The user ID or password is incorrect.');
    const japanese = await runCli(['login', '--login-id', owner.loginId, '--password', 'wrong-pass1'], {
      ...env(),
      LANG: 'en_US.UTF-8',
      KEIYAKU_LANG: 'ja',
    });
    expect(japanese.err).toContain('INVALID_CREDENTIALS: ログインに失敗しました。');
    expect(stored()).toBeNull();
  });

  it('an API command without stored tokens or environment credentials exits 3', async () => {
    await expect(openSession({ env: env() })).rejects.toMatchObject({ exitCode: EXIT.notSignedIn });
  });

  it('refreshes an expired access token before a call and saves the rotated pair', async () => {
    await login();
    const before = stored()!;
    // The access token lives 15 minutes; the session's idle limit is 30.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60_000 });
    const session = await openSession({ env: env() });
    const me = await session.client.GET('/me');
    expect(me.response.status).toBe(200);
    const after = stored()!;
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(tokenExpiry(after.authorizationToken)).toBeGreaterThan(Date.now() / 1000);
  });

  it('retries a call once with a renewed token when the server says TOKEN_EXPIRED', async () => {
    await login();
    const before = stored()!;
    // Only the server's clock moves on: the CLI still believes its token valid.
    app.clock.advance(16 * 60_000);
    try {
      const session = await openSession({ env: env() });
      const me = await session.client.GET('/me');
      expect(me.response.status).toBe(200);
      expect(stored()!.refreshToken).not.toBe(before.refreshToken);
    } finally {
      app.clock.advance(-16 * 60_000);
    }
  });

  it('logout ends the session on the server and deletes the stored tokens', async () => {
    await login();
    const { authorizationToken } = stored()!;
    const run = await runCli(['logout'], env());
    expect(run).toMatchObject({ exitCode: 0, out: `Signed out of ${app.url}\n` });
    expect(stored()).toBeNull();
    const me = await app.api.call('getCurrentUser', { token: authorizationToken });
    expect(me.status).toBe(401);
  });

  it('environment credentials sign in for one run only and sign out afterwards', async () => {
    const sessionsBefore = await app.service.database.knex('auth_sessions').whereNull('revoked_at').count('* as n');
    await withApi(
      { env: { ...env(), KEIYAKU_LOGIN_ID: owner.loginId, KEIYAKU_PASSWORD: owner.password } },
      async (s) => {
        expect((await s.client.GET('/me')).response.status).toBe(200);
      },
    );
    const sessionsAfter = await app.service.database.knex('auth_sessions').whereNull('revoked_at').count('* as n');
    expect(Number(sessionsAfter[0]!.n)).toBe(Number(sessionsBefore[0]!.n));
    expect(stored()).toBeNull();
  });

  it('the keiyaku launcher signs in and out as a child process', async () => {
    const first = await spawnCli(['login', '--login-id', owner.loginId, '--password', owner.password], env());
    expect(first).toMatchObject({ exitCode: 0 });
    expect(stored()).not.toBeNull();
    const second = await spawnCli(['logout'], env());
    expect(second).toMatchObject({ exitCode: 0, out: `Signed out of ${app.url}\n` });
    expect(stored()).toBeNull();
  });

  it('an unknown option is a usage error with exit code 2', async () => {
    const run = await runCli(['login', '--bogus'], env());
    expect(run.exitCode).toBe(EXIT.usage);
    expect(run.err).toContain("unknown option '--bogus'");
  });
});
