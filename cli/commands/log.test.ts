import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../errors.ts';
import { appendSignRecord } from '../../core/modules/sign-records/ledger.ts';
import { type TestApp, startApp } from '../../tests/helpers/app.ts';
import { signUpOrganization } from '../../tests/helpers/accounts.ts';
import { runCli, spawnCli } from '../../tests/helpers/cli.ts';
import { splitRange } from './log-export.ts';

let app: TestApp;
let owner: Awaited<ReturnType<typeof signUpOrganization>>;
let folder: string;

const today = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
const env = () => ({
  KEIYAKU_CONFIG_DIR: path.join(folder, 'config'),
  KEIYAKU_URL: app.url,
  KEIYAKU_LOGIN_ID: owner.loginId,
  KEIYAKU_PASSWORD: owner.password,
  KEIYAKU_LANG: 'en',
});
const file = (name: string) => path.join(folder, name);
const exportTo = (name: string, ...more: string[]) =>
  runCli(['log', 'export', '--from', today(), '--to', today(), '--out', file(name), ...more], env());

beforeAll(async () => {
  app = await startApp();
  owner = await signUpOrganization(app);
  folder = mkdtempSync(path.join(tmpdir(), 'keiyaku-log-cli-'));
  await app.service.deps.oplog.record(app.service.deps.knex, null, {
    action: 'test.note',
    organizationId: owner.organizationId,
    details: { note: 'カンマ, "引用" と\n改行' },
  });
});

afterAll(async () => {
  await app?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('keiyaku log export / verify', () => {
  it('export saves the operation log CSV of the range to --out', async () => {
    const run = await exportTo('export.csv');
    expect(run).toMatchObject({ exitCode: 0, err: '' });
    expect(run.out).toMatch(/^Saved the operation log to .*export\.csv \(\d+ bytes\)\n$/);
    const text = readFileSync(file('export.csv'), 'utf8');
    expect(text.startsWith('\uFEFFid,timestamp,')).toBe(true);
    expect(text).toContain('test.note');
  });

  it("export writes to standard output with --out '-'", async () => {
    const run = await runCli(['log', 'export', '--from', today(), '--to', today(), '--out', '-'], env());
    expect(run.exitCode).toBe(0);
    expect(run.out).toMatch(/^\uFEFFid,timestamp,/);
    expect(run.out).toContain('test.note');
  });

  it('export --ledger saves the sign record ledger', async () => {
    await app.service.deps.knex.transaction((trx) =>
      appendSignRecord(
        trx,
        {
          organizationId: owner.organizationId,
          documentId: '00000000-0000-4000-8000-000000000002',
          documentRevision: 1,
          signerUserId: owner.ownerId,
          signerName: '山田 太郎',
          signatureType: 'party',
          signedAt: new Date(),
          documentHash: 'd'.repeat(64),
        },
        new Date(),
      ),
    );
    const run = await exportTo('ledger.csv', '--ledger');
    expect(run.out).toContain('Saved the sign record ledger');
    expect(readFileSync(file('ledger.csv'), 'utf8')).toContain(',party,');
    expect((await runCli(['log', 'verify', '--file', file('ledger.csv')], env())).exitCode).toBe(0);
    const ledger = await runCli(['ledger', 'verify', '--file', file('ledger.csv')], env());
    expect([ledger.exitCode, ledger.out]).toEqual([0, expect.stringContaining('sign record ledger intact')]);
    const online = await runCli(['ledger', 'verify'], env());
    expect([online.exitCode, online.out]).toEqual([0, expect.stringContaining('sign record ledger chain intact')]);
    const csv = readFileSync(file('ledger.csv'), 'utf8');
    writeFileSync(file('tampered.csv'), csv.replace('山田 太郎', '山田 次郎'));
    expect((await runCli(['ledger', 'verify', '--file', file('tampered.csv')], env())).exitCode).toBe(4);
  });

  it("export shows the API's refusal of a range over 31 days in the user's language and exits 1", async () => {
    const run = await runCli(['log', 'export', '--from', '2026-01-01', '--to', '2026-02-01', '--out', '-'], env());
    expect(run.exitCode).toBe(EXIT.apiError);
    expect(run.err).toContain('LOG_RANGE_TOO_LONG: Log output range at most 31 days. (/to)');
    const japanese = await runCli(['log', 'export', '--from', '2026-01-01', '--to', '2026-02-01'], {
      ...env(),
      KEIYAKU_LANG: 'ja',
    });
    expect(japanese.err).toContain('LOG_RANGE_TOO_LONG: ログの出力期間は31日以内で指定してください。');
  });

  it('export with a malformed date is a usage error (exit 2) and calls nobody', async () => {
    const run = await runCli(['log', 'export', '--from', '2026/01/01', '--to', today()], env());
    expect(run.exitCode).toBe(EXIT.usage);
    expect(run.err).toContain('--from must be a date');
  });

  it('export --split downloads a longer range in 31-day pieces joined into one file that verifies', async () => {
    expect(splitRange('2026-01-01', '2026-03-05')).toEqual([
      { from: '2026-01-01', to: '2026-01-31' },
      { from: '2026-02-01', to: '2026-03-03' },
      { from: '2026-03-04', to: '2026-03-05' },
    ]);
    const from = new Date(Date.parse(`${today()}T00:00:00Z`) - 40 * 86_400_000).toISOString().slice(0, 10);
    const run = await runCli(
      ['log', 'export', '--from', from, '--to', today(), '--split', '--out', file('long.csv')],
      env(),
    );
    expect(run.exitCode).toBe(0);
    expect(run.err).toContain('(2/2)');
    const text = readFileSync(file('long.csv'), 'utf8');
    expect(text.match(/id,timestamp,/g)).toHaveLength(1);
    expect((await runCli(['log', 'verify', '--file', file('long.csv')], env())).exitCode).toBe(0);
  });

  it('verify --file accepts an untouched export', async () => {
    await exportTo('intact.csv');
    const run = await runCli(['log', 'verify', '--file', file('intact.csv')], env());
    expect(run.exitCode).toBe(0);
    expect(run.out).toMatch(/operation log intact, \d+ rows checked/);
  });

  it('verify --file names the row whose cell was changed and exits 4', async () => {
    await exportTo('tampered.csv');
    const text = readFileSync(file('tampered.csv'), 'utf8');
    const lines = text.split('\r\n');
    const index = lines.findIndex((line) => line.includes(',test.note,'));
    const id = lines[index]!.split(',')[0];
    lines[index] = lines[index]!.replace(',test.note,', ',test.innocent,');
    writeFileSync(file('tampered.csv'), lines.join('\r\n'));
    const run = await runCli(['log', 'verify', '--file', file('tampered.csv')], env());
    expect(run.exitCode).toBe(EXIT.verificationFailed);
    expect(run.err).toContain(`chain broken at row id ${id} (line ${index + 1}): hash_mismatch`);
  });

  it('verify --file names the row after a deleted one as a broken link', async () => {
    await exportTo('gap.csv');
    const lines = readFileSync(file('gap.csv'), 'utf8').split('\r\n');
    // Drop the second data row: the third no longer links to the row before it.
    const [header, first, , third, ...rest] = lines;
    writeFileSync(file('gap.csv'), [header, first, third, ...rest].join('\r\n'));
    const run = await runCli(['log', 'verify', '--file', file('gap.csv')], env());
    expect(run.exitCode).toBe(EXIT.verificationFailed);
    expect(run.err).toContain(`row id ${third!.split(',')[0]} (line 3): broken_link`);
  });

  it('verify asks the server for the whole chain and exits 4 naming the first bad row', async () => {
    const ok = await runCli(['log', 'verify'], env());
    expect(ok.exitCode).toBe(0);
    expect(ok.out).toMatch(/^operation log chain intact on .*: \d+ rows checked\n$/);
    const { knex } = app.service.deps;
    const row = await knex('operation_logs').where({ organization_id: owner.organizationId }).orderBy('id').first();
    await knex.transaction(async (trx) => {
      await trx.raw('ALTER TABLE operation_logs DISABLE TRIGGER operation_logs_no_change');
      await trx('operation_logs').where({ id: row.id }).update({ action: 'forged' });
      await trx.raw('ALTER TABLE operation_logs ENABLE TRIGGER operation_logs_no_change');
    });
    const broken = await runCli(['log', 'verify'], env());
    expect(broken.exitCode).toBe(EXIT.verificationFailed);
    expect(broken.err).toContain(`operation log chain broken at row id ${row.id}: hash_mismatch`);
  });

  it('the keiyaku launcher exports and verifies as child processes', async () => {
    const exported = await spawnCli(
      ['log', 'export', '--from', today(), '--to', today(), '--ledger', '--out', file('child.csv')],
      env(),
    );
    expect(exported).toMatchObject({ exitCode: 0 });
    const verified = await spawnCli(['log', 'verify', '--file', file('child.csv')], env());
    expect(verified).toMatchObject({ exitCode: 0 });
    const missing = await spawnCli(['log', 'export', '--from', today(), '--to', today()], {
      ...env(),
      KEIYAKU_LOGIN_ID: '',
      KEIYAKU_PASSWORD: '',
    });
    expect(missing.exitCode).toBe(EXIT.notSignedIn);
    expect(missing.err).toContain('not signed in');
  });
});
