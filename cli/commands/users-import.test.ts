import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { runCli } from '../../tests/helpers/cli.ts';
import { adminSession, createGroup, uniqueLoginId } from '../../tests/helpers/org-admin.ts';
import { EXIT } from '../errors.ts';
import { progressReporter } from './csv-batch.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof adminSession>>;
let folder: string;

beforeAll(async () => {
  app = await startApp();
  admin = await adminSession(app);
  await createGroup(app, admin.token, 'Sales');
  folder = mkdtempSync(path.join(tmpdir(), 'keiyaku-cli-batch-'));
});

afterAll(async () => {
  await app?.close();
  rmSync(folder, { recursive: true, force: true });
});

const env = () => ({
  KEIYAKU_CONFIG_DIR: folder,
  KEIYAKU_URL: app.url,
  KEIYAKU_LOGIN_ID: admin.loginId,
  KEIYAKU_PASSWORD: admin.password,
  KEIYAKU_LANG: 'en',
});

function file(name: string, lines: string[]): string {
  const target = path.join(folder, name);
  writeFileSync(target, `${lines.join('\n')}\n`);
  return target;
}

const row = (loginId: string, groups = 'Sales') => `add,${loginId},User ${loginId},${loginId}@example.com,${groups}`;
const HEADER = 'operation,loginId,name,email,groups';
const existing = (loginIds: string[]) =>
  app.service.deps.knex('users').whereIn('login_id', loginIds).whereNot({ status: 'deleted' }).pluck('login_id');

describe('keiyaku users import / export', () => {
  it("import with a bad row prints that row's line and reason and exits 1, applying the other rows", async () => {
    const [good, bad] = [uniqueLoginId('cli'), uniqueLoginId('cli')];
    const run = await runCli(['users', 'import', file('bad-row.csv', [HEADER, row(good), row(bad, 'Nowhere')])], env());
    expect(run.exitCode).toBe(EXIT.apiError);
    expect(run.out).toContain('Imported: 2 rows, 1 added, 0 updated, 0 deleted, 0 unchanged, 1 failed');
    expect(run.out).toContain(`line 3 (${bad}): BATCH_UNKNOWN_GROUP [groups]: Group "Nowhere" was not found.`);
    expect(run.err).toContain('BATCH_ROWS_FAILED');
    expect(await existing([good, bad])).toEqual([good]);
  });

  it("sends the file in chunks, reports the file's own line numbers and prints plain progress lines off a terminal", async () => {
    const ids = Array.from({ length: 5 }, () => uniqueLoginId('chunk'));
    const lines = [
      HEADER,
      ...ids.slice(0, 3).map((id) => row(id)),
      '',
      row(ids[3]!, 'Nowhere'),
      row(ids[4]!),
      row(ids[0]!),
    ];
    const run = await runCli(['users', 'import', '--chunk-size', '2', file('chunks.csv', lines)], env());
    expect(run.exitCode).toBe(EXIT.apiError);
    // The blank line 5 is skipped; the bad row is line 6, the repeated user ID (first on line 2) line 8.
    expect(run.out).toContain(`line 6 (${ids[3]}): BATCH_UNKNOWN_GROUP`);
    expect(run.out).toContain(
      `line 8 (${ids[0]}): BATCH_DUPLICATE_IN_FILE [loginId]: The same value also appears on line 2`,
    );
    expect(run.out).toContain('6 rows, 4 added, 0 updated, 0 deleted, 0 unchanged, 2 failed');
    expect(run.err).toContain('users import: 0/6 rows\n');
    expect(run.err).toContain('users import: 6/6 rows\n');
    expect((await existing(ids)).sort()).toEqual([ids[0], ids[1], ids[2], ids[4]].sort());
  });

  it('re-writes each chunk with the shared CSV writer: the server stores what the file says, formulas included', async () => {
    const ids = Array.from({ length: 4 }, () => uniqueLoginId('formula'));
    const names = ['=1+1', "'=guarded", "''=twice", ' @padded '];
    const lines = [
      HEADER,
      ...ids.map((id, i) => `add,${id},"${names[i]!.replace(/"/g, '""')}",${id}@example.com,Sales`),
    ];
    const run = await runCli(['users', 'import', '--chunk-size', '2', file('formulas.csv', lines)], env());
    expect(run.exitCode).toBe(0);
    const stored = await app.service.deps.knex('users').whereIn('login_id', ids).select('login_id', 'name');
    const nameOf = new Map(stored.map((u) => [u.login_id, u.name]));
    // As the server reads a file sent as it is: cells trimmed, one formula guard removed.
    expect(ids.map((id) => nameOf.get(id))).toEqual(['=1+1', '=guarded', "'=twice", '@padded']);
  });

  it('--dry-run reports what would happen and writes nothing', async () => {
    const id = uniqueLoginId('dry');
    const run = await runCli(['users', 'import', '--dry-run', file('dry.csv', [HEADER, row(id)])], env());
    expect(run.exitCode).toBe(0);
    expect(run.out).toContain('Preview (nothing written): 1 rows, 1 added');
    expect(await existing([id])).toEqual([]);
  });

  it('a file the server refuses as a whole exits 1 with its code', async () => {
    const run = await runCli(['users', 'import', file('header.csv', ['operation,shoeSize', 'add,42'])], env());
    expect(run.exitCode).toBe(EXIT.apiError);
    expect(run.err).toContain('BATCH_CSV_HEADER_INVALID');
  });

  it('export writes the users as CSV, and importing it back changes nothing', async () => {
    const out = path.join(folder, 'users.csv');
    const exported = await runCli(['users', 'export', '--out', out], env());
    expect(exported).toMatchObject({ exitCode: 0, err: '' });
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFoperation,loginId,name,email,subEmails')).toBe(true);
    expect(text).toContain(`update,${admin.loginId},`);
    const again = await runCli(['users', 'import', out], env());
    expect(again.exitCode).toBe(0);
    expect(again.out).toMatch(/Imported: (\d+) rows, 0 added, 0 updated, 0 deleted, \1 unchanged, 0 failed/);
  });

  it('export --filter narrows by search and refuses an unknown filter as a usage error', async () => {
    const narrowed = await runCli(['users', 'export', '--out', '-', '--filter', `q=${admin.loginId}`], env());
    expect(narrowed.exitCode).toBe(0);
    expect(narrowed.out.trimEnd().split('\r\n')).toHaveLength(2);
    const wrong = await runCli(['users', 'export', '--filter', 'shoeSize=42'], env());
    expect(wrong.exitCode).toBe(EXIT.usage);
    expect(wrong.err).toContain('--filter shoeSize=42');
  });

  it('groups import and export work the same way', async () => {
    const run = await runCli(['groups', 'import', file('groups.csv', ['operation,name', 'update,Sales'])], env());
    expect(run.exitCode).toBe(0);
    expect(run.out).toContain('1 unchanged');
    const exported = await runCli(['groups', 'export', '--out', '-'], env());
    expect(exported.out).toContain('update,Sales,,');
  });

  it('draws a progress bar on a terminal', () => {
    let err = '';
    const progress = progressReporter({ out: () => undefined, err: (t) => (err += t) }, true, 'users import');
    progress.update(250, 1000);
    progress.finish();
    expect(err).toBe(`\rusers import [${'#'.repeat(8)}${'.'.repeat(22)}] 250/1000 rows 25%\n`);
  });
});
