import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { type Database, openDatabase } from '../db/index.ts';
import { LocalBlobStore } from './blob-store.ts';
import { blobReferenceColumns, sweepOrphanBlobs } from './sweep-orphans.ts';

const HOUR = 3600_000;
let database: Database;
let drop: () => Promise<void>;
let dataDir: string;
let store: LocalBlobStore;

beforeAll(async () => {
  const isolated = await isolatedDatabase(inject('dbKind'), inject('dbTemplate'));
  drop = isolated.drop;
  database = await openDatabase(isolated.config);
  dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-sweep-'));
  store = new LocalBlobStore(dataDir);
  // A table of this test's own that points at blobs the way document_versions and seal_images do: a `sha256` column.
  await database.knex.schema.createTable('sweep_test_refs', (t) => t.text('sha256').notNullable());
});
afterAll(async () => {
  await database.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sets a file's modification time `ms` into the past. */
function age(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(file, then, then);
}

async function blob(text: string, options: { agedMs?: number; referenced?: boolean } = {}): Promise<string> {
  const { sha256 } = await store.put(Buffer.from(text));
  if (options.agedMs) age(store.pathOf(sha256), options.agedMs);
  if (options.referenced) await database.knex('sweep_test_refs').insert({ sha256 });
  return sha256;
}

const sweep = () => sweepOrphanBlobs(database.knex, store, { graceMs: HOUR });

describe('the orphan blob sweeper', () => {
  it('counts every sha256 column of the schema as a reference, document versions and seal images included', async () => {
    const tables = (await blobReferenceColumns(database.knex)).map((c) => c.table);
    expect(tables).toEqual(
      expect.arrayContaining(['"public"."document_versions"', '"public"."seal_images"', '"public"."sweep_test_refs"']),
    );
  });

  it('deletes old unreferenced blobs and old temp files, and keeps referenced, young and in-flight ones', async () => {
    const referencedOld = await blob('referenced and old', { agedMs: 2 * HOUR, referenced: true });
    const orphanOld = await blob('orphan and old', { agedMs: 2 * HOUR });
    const orphanYoung = await blob('orphan, written a minute ago', { agedMs: 60_000 });
    const folder = path.dirname(store.pathOf(orphanOld));
    const oldTemp = `${store.pathOf(orphanOld)}.0a1b2c.tmp`; // a write cut short by a crash
    const youngTemp = `${store.pathOf(orphanYoung)}.3d4e5f.tmp`; // a write in progress
    writeFileSync(oldTemp, 'half a file');
    age(oldTemp, 2 * HOUR);
    writeFileSync(youngTemp, 'being written');

    const report = await sweep();

    expect(await store.exists(referencedOld)).toBe(true);
    expect(await store.exists(orphanOld)).toBe(false);
    expect(await store.exists(orphanYoung)).toBe(true);
    expect(existsSync(oldTemp)).toBe(false);
    expect(existsSync(youngTemp)).toBe(true);
    expect(readdirSync(folder).filter((name) => name.endsWith('.sweep'))).toEqual([]);
    expect(report).toMatchObject({ blobsDeleted: 1, tempFilesDeleted: 1, blobsKept: 1 });
  });

  it('keeps an old orphan that put() is storing again (its row is about to commit)', async () => {
    const bytes = Buffer.from('uploaded again after the first upload crashed');
    const sha256 = await blob(bytes.toString(), { agedMs: 2 * HOUR });
    await store.put(bytes); // the new upload: the blob is there already, so put() only touches it
    await sweep();
    expect(await store.exists(sha256)).toBe(true);
  });

  it('puts back a blob that a sweep crashed with set aside', async () => {
    const sha256 = await blob('set aside by a sweep that was killed', { agedMs: 60_000, referenced: true });
    const file = store.pathOf(sha256);
    const aside = `${file}.99aa88bb.sweep`;
    rmSync(aside, { force: true });
    writeFileSync(aside, 'set aside by a sweep that was killed');
    rmSync(file);
    const report = await sweep();
    expect(report.restored).toBeGreaterThanOrEqual(1);
    expect((await store.read(sha256)).toString()).toBe('set aside by a sweep that was killed');
    expect(existsSync(aside)).toBe(false);
  });

  it('leaves files it does not know, and an empty or missing store, alone', async () => {
    const strange = path.join(store.root, 'ab', 'cd');
    mkdirSync(strange, { recursive: true });
    writeFileSync(path.join(strange, 'README'), 'not a blob');
    age(path.join(strange, 'README'), 2 * HOUR);
    await sweep();
    expect(existsSync(path.join(strange, 'README'))).toBe(true);
    const empty = new LocalBlobStore(mkdtempSync(path.join(tmpdir(), 'keiyaku-sweep-empty-')));
    await expect(sweepOrphanBlobs(database.knex, empty, { graceMs: HOUR })).resolves.toMatchObject({
      blobsDeleted: 0,
    });
  });
});
