import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSession } from '../api.ts';
import { CredentialStore } from '../credentials.ts';
import { EXIT } from '../errors.ts';
import { type TestApp, startApp } from '../../tests/helpers/app.ts';
import { signedInOwner } from '../../tests/helpers/accounts.ts';
import { runCli } from '../../tests/helpers/cli.ts';

let app: TestApp;
let apiKey: string;
let configDir: string;

const env = () => ({
  KEIYAKU_CONFIG_DIR: configDir,
  KEIYAKU_URL: app.url,
  KEIYAKU_LOGIN_ID: '',
  KEIYAKU_PASSWORD: '',
  KEIYAKU_API_KEY: '',
  LANG: 'en_US.UTF-8',
});
const store = () => new CredentialStore({ KEIYAKU_CONFIG_DIR: configDir });

beforeAll(async () => {
  app = await startApp();
  const owner = await signedInOwner(app, { plan: 'standard' });
  const created = await app.api.call('createApiKey', {
    token: owner.token,
    body: { data: { type: 'ApiKey', attributes: { name: 'CLI連携', scopes: ['users:read'] } } },
  });
  expect(created.status).toBe(201);
  apiKey = created.body.meta.secret;
});

afterAll(async () => {
  await app?.close();
});

beforeEach(() => {
  configDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-cli-config-'));
});

afterEach(() => {
  rmSync(configDir, { recursive: true, force: true });
});

describe('keiyaku with an API key', () => {
  it('KEIYAKU_API_KEY authenticates every call, with nothing stored and no refresh', async () => {
    const run = await runCli(['users', 'export', '--out', '-'], { ...env(), KEIYAKU_API_KEY: apiKey });
    expect(run).toMatchObject({ exitCode: 0, err: '' });
    expect(run.out).toContain('loginId');
    expect(run.out).not.toContain('api-key:'); // the key's service user is not exported as a person
    expect(store().get(app.url)).toBeNull();
    expect(store().getApiKey(app.url)).toBeNull();
    // The key's scope still applies: its service user cannot reach another area.
    const session = await openSession({ env: { ...env(), KEIYAKU_API_KEY: apiKey } });
    const workspaces = await session.client.GET('/workspaces');
    expect(workspaces.response.status).toBe(403);
    expect((workspaces.error as { errors: { code: string }[] }).errors[0]!.code).toBe('API_KEY_SCOPE_MISSING');
  });

  it('login --api-key checks the key and stores it (0600); later commands use it; logout forgets it', async () => {
    const login = await runCli(['login', '--api-key', apiKey], env());
    expect(login).toMatchObject({ exitCode: 0, err: '' });
    expect(login.out).toContain(`Stored the API key for ${app.url} (CLI連携;`);
    const file = path.join(configDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ [app.url]: { apiKey } });

    const run = await runCli(['users', 'export', '--out', '-'], env());
    expect(run.exitCode).toBe(0);

    const logout = await runCli(['logout'], env());
    expect(logout.out).toBe(`Removed the stored API key for ${app.url}\n`);
    expect(store().getApiKey(app.url)).toBeNull();
    // Forgetting the key locally does not revoke it.
    expect((await app.api.call('listUsers', { token: apiKey })).status).toBe(200);
  });

  it('login --api-key refuses an unknown key with its code and exit 3, storing nothing', async () => {
    const run = await runCli(['login', '--api-key', `kyk_${'x'.repeat(43)}`], env());
    expect(run.exitCode).toBe(EXIT.notSignedIn);
    expect(run.err).toContain('API_KEY_INVALID: The API key is not valid.');
    expect(store().getApiKey(app.url)).toBeNull();
  });

  it('login --api-key without a value takes KEIYAKU_API_KEY', async () => {
    const run = await runCli(['login', '--api-key'], { ...env(), KEIYAKU_API_KEY: apiKey });
    expect(run.exitCode).toBe(0);
    expect(store().getApiKey(app.url)).toBe(apiKey);
  });
});
