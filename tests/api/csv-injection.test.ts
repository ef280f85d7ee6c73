/*
 * Formula injection (CWE-1236) through the CSV exports: an anonymous User-Agent on a failed sign-in, and user
 * names, must reach the administrator's spreadsheet as text, and the exported hash chains must still verify
 * (they hash the stored values, not the guarded cells).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, verifyCsv } from '../../cli/log-csv.ts';
import { EXIT } from '../../cli/errors.ts';
import { appendSignRecord } from '../../core/modules/sign-records/ledger.ts';
import { type TestApp, startApp } from '../helpers/app.ts';
import { signedInOwner, signInBody, uniqueLoginId } from '../helpers/accounts.ts';
import { runCli } from '../helpers/cli.ts';

const EVIL_AGENT = '=HYPERLINK("http://evil","x")';
const EVIL_NAME = '@SUM(1+1)';

let app: TestApp;
let owner: Awaited<ReturnType<typeof signedInOwner>>;
let folder: string;

const knex = () => app.service.deps.knex;
const today = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
const file = (name: string) => path.join(folder, name);
const cliEnv = () => ({
  KEIYAKU_CONFIG_DIR: path.join(folder, 'config'),
  KEIYAKU_URL: app.url,
  KEIYAKU_LOGIN_ID: owner.loginId,
  KEIYAKU_PASSWORD: owner.password,
  KEIYAKU_LANG: 'en',
});

/** Downloads a log CSV through the API (raw text, BOM kept) after checking the answer against the contract. */
async function download(operationId: 'downloadOperationLogs' | 'downloadSignRecords') {
  const route = operationId === 'downloadOperationLogs' ? 'operation-logs' : 'sign-records';
  const response = await fetch(`${app.url}/core/v1/${route}/download?from=${today()}&to=${today()}`, {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
  app.api.check(operationId, response.status, response.headers.get('content-type'), text);
  expect(response.status).toBe(200);
  return text;
}

/** The cells of the first data row whose `column` holds `value` (raw, as written), and a cell getter. */
function rowWhere(text: string, column: string, value: string) {
  const [header, ...rows] = parseCsv(text).map((r) => r.cells);
  const at = (name: string) => header!.indexOf(name);
  const row = rows.find((cells) => cells[at(column)] === value);
  expect(row, `a row with ${column}=${value}`).toBeDefined();
  return (name: string) => row![at(name)];
}

beforeAll(async () => {
  app = await startApp();
  owner = await signedInOwner(app, { userName: EVIL_NAME });
  folder = mkdtempSync(path.join(tmpdir(), 'keiyaku-csv-injection-'));
  // The attack: an anonymous caller fails to sign in as the owner with a formula for a User-Agent.
  const failed = await app.api.call('signIn', {
    body: signInBody(owner.loginId, 'wrong-pass1'),
    headers: { 'user-agent': EVIL_AGENT },
  });
  expect(failed.status).toBe(401);
  await knex().transaction(async (trx) => {
    for (const signerName of [EVIL_NAME, "'=1", '＝ＳＵＭ（１）']) {
      await appendSignRecord(
        trx,
        {
          organizationId: owner.organizationId,
          documentId: '00000000-0000-4000-8000-000000000003',
          documentRevision: 1,
          signerUserId: owner.ownerId,
          signerName,
          signatureType: 'party',
          certificateSubject: `CN=${signerName}`,
          signedAt: new Date(),
          documentHash: 'e'.repeat(64),
        },
        new Date(),
      );
    }
  });
});

afterAll(async () => {
  await app?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('CSV formula injection in the operation log export', () => {
  it("writes a failed sign-in's formula User-Agent and a formula actor name as text starting with '", async () => {
    const stored = await knex()('operation_logs')
      .where({ organization_id: owner.organizationId, action: 'auth.sign_in_failed' })
      .first('user_agent');
    expect(stored.user_agent).toBe(EVIL_AGENT);
    const text = await download('downloadOperationLogs');
    const cell = rowWhere(text, 'action', 'auth.sign_in_failed');
    expect(cell('user_agent')).toBe(`'${EVIL_AGENT}`);
    expect(cell('actor_name')).toBe(`'${EVIL_NAME}`);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    // No cell of the file starts a formula.
    const cells = parseCsv(text).flatMap((r) => r.cells);
    expect(cells.filter((c) => c !== null && /^[=+\-@\t\r＝＋－＠]/.test(c))).toEqual([]);
  });

  it('still verifies: offline from the file and on the server', async () => {
    const text = await download('downloadOperationLogs');
    expect(verifyCsv(text)).toMatchObject({ kind: 'operation log', firstBad: null });
    const online = await app.api.call('verifyOperationLogs', { token: owner.token });
    expect(online.body.data.attributes).toMatchObject({ valid: true, firstBadRow: null });
  });

  it('keiyaku log export writes the guarded cell and keiyaku log verify --file passes; an edit still fails', async () => {
    const exported = await runCli(
      ['log', 'export', '--from', today(), '--to', today(), '--out', file('oplog.csv')],
      cliEnv(),
    );
    expect(exported).toMatchObject({ exitCode: 0, err: '' });
    const text = readFileSync(file('oplog.csv'), 'utf8');
    expect(rowWhere(text, 'action', 'auth.sign_in_failed')('user_agent')).toBe(`'${EVIL_AGENT}`);
    const verified = await runCli(['log', 'verify', '--file', file('oplog.csv')], cliEnv());
    expect(verified).toMatchObject({ exitCode: 0, err: '' });
    expect(verified.out).toContain('operation log intact');
    writeFileSync(file('edited.csv'), text.replace('http://evil', 'http://evil2'));
    const edited = await runCli(['log', 'verify', '--file', file('edited.csv')], cliEnv());
    expect(edited.exitCode).toBe(EXIT.verificationFailed);
    expect(edited.err).toContain('hash_mismatch');
  });
});

describe('CSV formula injection in the sign record ledger export', () => {
  it('guards signer names (half- and full-width formulas, and a value already starting with a quote)', async () => {
    const text = await download('downloadSignRecords');
    const names = parseCsv(text).map((r) => r.cells[8]);
    expect(names[0]).toBe('signer_name');
    expect(names.slice(1)).toEqual([`'${EVIL_NAME}`, "''=1", "'＝ＳＵＭ（１）"]);
    expect(rowWhere(text, 'signer_name', `'${EVIL_NAME}`)('certificate_subject')).toBe(`CN=${EVIL_NAME}`);
    expect(verifyCsv(text)).toEqual({ kind: 'sign record ledger', checked: 3, firstBad: null });
  });

  it('keiyaku log export --ledger and keiyaku ledger verify --file pass on the guarded file', async () => {
    const exported = await runCli(
      ['log', 'export', '--from', today(), '--to', today(), '--ledger', '--out', file('ledger.csv')],
      cliEnv(),
    );
    expect(exported.exitCode).toBe(0);
    expect(readFileSync(file('ledger.csv'), 'utf8')).toContain(`,'${EVIL_NAME},`);
    const verified = await runCli(['ledger', 'verify', '--file', file('ledger.csv')], cliEnv());
    expect([verified.exitCode, verified.out]).toEqual([0, expect.stringContaining('sign record ledger intact')]);
  });
});

describe('batch exports', () => {
  it("guards a user's formula name in the users CSV", async () => {
    const loginId = uniqueLoginId('formula');
    await knex()('users').insert({
      organization_id: owner.organizationId,
      login_id: loginId,
      name: '-1+1',
      email: `${loginId}@example.com`,
      password_hash: 'unused',
    });
    const response = await fetch(`${app.url}/core/v1/batch/users?filter[q]=${loginId}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain(`update,${loginId},'-1+1,`);
  });
});
