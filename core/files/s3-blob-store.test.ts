import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { finished } from 'node:stream/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { type S3TestServer, s3Env, startS3Server } from '../../tests/helpers/s3-server.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/index.ts';
import { sha256Of } from './blob-store.ts';
import { openBlobStore } from './open-blob-store.ts';
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.ts';
import { sweepOrphanBlobs } from './sweep-orphans.ts';

const HOUR = 3600_000;
let server: S3TestServer;
const stores: S3BlobStore[] = [];

beforeAll(async () => {
  server = await startS3Server();
});
afterAll(async () => {
  stores.forEach((store) => store.close());
  await server.close();
});

function storeWith(options: Partial<S3BlobStoreOptions> = {}): S3BlobStore {
  const store = new S3BlobStore({
    bucket: server.bucket,
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    prefix: 'tenant-a/',
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    ...options,
  });
  stores.push(store);
  return store;
}

/** Sets an object's LastModified `ms` into the past (s3rver takes it from its file's modification time). */
function age(store: S3BlobStore, sha256: string, ms: number): void {
  const file = server.objectFile(store.keyOf(sha256));
  if (!file) throw new Error(`no object for ${sha256}`);
  const then = new Date(Date.now() - ms);
  utimesSync(file, then, then);
}

describe('S3BlobStore', () => {
  it('stores a blob under <prefix>blobs/ab/cd/<sha256> whose bytes hash to the key, and reads and streams it', async () => {
    const store = storeWith();
    const bytes = Buffer.from('%PDF-1.7 on S3');
    const stored = await store.put(bytes);
    expect(stored).toEqual({ sha256: sha256Of(bytes), size: bytes.length });
    const key = `tenant-a/blobs/${stored.sha256.slice(0, 2)}/${stored.sha256.slice(2, 4)}/${stored.sha256}`;
    expect(store.keyOf(stored.sha256)).toBe(key);
    // What reached the bucket is what was put: its SHA-256 is the key's last part.
    expect(sha256Of(readFileSync(server.objectFile(key)!))).toBe(stored.sha256);
    expect(await store.read(stored.sha256)).toEqual(bytes);
    expect(await buffer(await store.stream(stored.sha256))).toEqual(bytes);
    expect(await store.exists(stored.sha256)).toBe(true);
  });

  it('is idempotent: the same bytes twice leave one object, and a second put() restarts its grace period', async () => {
    const store = storeWith({ prefix: 'idempotent/' });
    const bytes = Buffer.from('same bytes, twice');
    const [a, b] = await Promise.all([store.put(bytes), store.put(bytes)]);
    expect(a).toEqual(b);
    expect(server.keys().filter((key) => key.startsWith('idempotent/'))).toEqual([store.keyOf(a.sha256)]);
    age(store, a.sha256, 2 * HOUR);
    expect(Date.now() - (await store.lastModified(a.sha256))!).toBeGreaterThan(HOUR);
    await store.put(bytes);
    expect(Date.now() - (await store.lastModified(a.sha256))!).toBeLessThan(60_000);
    expect(await store.read(a.sha256)).toEqual(bytes);
  });

  it('throws ENOENT for a missing blob, like the local store, and refuses what is not a SHA-256', async () => {
    const store = storeWith();
    const missing = sha256Of(Buffer.from('never stored'));
    await expect(store.read(missing)).rejects.toMatchObject({ code: 'ENOENT', message: /missing from s3:\/\// });
    await expect(store.stream(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.exists(missing)).toBe(false);
    await expect(store.read('../../etc/passwd')).rejects.toThrow(/SHA-256/);
  });

  it('refuses bytes altered in the bucket: read() throws, the stream errs before its last bytes', async () => {
    const store = storeWith({ prefix: 'tampered/' });
    const original = Buffer.alloc(300_000, 'the signed original ');
    const { sha256 } = await store.put(original);
    const tampered = Buffer.from(original);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 1, tampered.length - 1);
    writeFileSync(server.objectFile(store.keyOf(sha256))!, tampered);
    await expect(store.read(sha256)).rejects.toThrow(/corrupt/);
    const stream = await store.stream(sha256);
    const received: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => received.push(chunk));
    await expect(finished(stream)).rejects.toThrow(/corrupt/);
    expect(received.length).toBeGreaterThan(0);
    expect(Buffer.concat(received).length).toBeLessThan(original.length);
  });

  it('says at start-up when the bucket cannot be reached, without the secret', async () => {
    const env = { KEIYAKU_DATA_DIR: server.directory, ...s3Env(server), KEIYAKU_S3_BUCKET: 'no-such-bucket' };
    const failure = await openBlobStore(loadConfig(env)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(
      /cannot reach the blob store s3:\/\/no-such-bucket\/blobs\/: no such bucket/,
    );
    expect((failure as Error).message).not.toContain(server.secretAccessKey);
    const store = await openBlobStore(loadConfig({ ...env, KEIYAKU_S3_BUCKET: server.bucket }));
    expect(store).toBeInstanceOf(S3BlobStore);
    stores.push(store as S3BlobStore);
  });
});

describe('the orphan blob sweeper on S3', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await isolatedDatabase(inject('dbKind'), inject('dbTemplate'));
    drop = isolated.drop;
    database = await openDatabase(isolated.config);
    await database.knex.schema.createTable('sweep_s3_refs', (t) => t.text('sha256').notNullable());
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('deletes old unreferenced blobs a listing page at a time, and keeps referenced, young and re-put ones', async () => {
    // Two keys a listing page: the sweep must follow the continuation tokens.
    const store = storeWith({ prefix: 'swept/', listPageSize: 2 });
    const blob = async (text: string, options: { agedMs?: number; referenced?: boolean } = {}) => {
      const { sha256 } = await store.put(Buffer.from(text));
      if (options.agedMs) age(store, sha256, options.agedMs);
      if (options.referenced) await database.knex('sweep_s3_refs').insert({ sha256 });
      return sha256;
    };
    const referencedOld = await blob('referenced and old', { agedMs: 2 * HOUR, referenced: true });
    const orphansOld = [await blob('orphan 1', { agedMs: 2 * HOUR }), await blob('orphan 2', { agedMs: 3 * HOUR })];
    const orphanYoung = await blob('orphan, written a minute ago', { agedMs: 60_000 });
    const reput = await blob('uploaded again after a crash', { agedMs: 2 * HOUR });
    await store.put(Buffer.from('uploaded again after a crash')); // its row is about to commit
    // Keys that are not blobs of this store: another prefix's orphan, and something else under blobs/.
    const other = storeWith({ prefix: 'other-tenant/' });
    const othersOrphan = (await other.put(Buffer.from('orphan of another prefix'))).sha256;
    age(other, othersOrphan, 2 * HOUR);
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'swept/blobs/README', Body: 'not a blob' }));
    utimesSync(server.objectFile('swept/blobs/README')!, new Date(0), new Date(0));
    client.destroy();

    const report = await sweepOrphanBlobs(database.knex, store, { graceMs: HOUR });

    expect(report).toEqual({ blobsDeleted: 2, tempFilesDeleted: 0, restored: 0, blobsKept: 1 });
    for (const sha256 of orphansOld) expect(await store.exists(sha256)).toBe(false);
    for (const sha256 of [referencedOld, orphanYoung, reput]) expect(await store.exists(sha256)).toBe(true);
    expect(await other.exists(othersOrphan)).toBe(true);
    expect(server.objectFile('swept/blobs/README')).not.toBeNull();
    // A second sweep finds nothing more to do.
    expect((await sweepOrphanBlobs(database.knex, store, { graceMs: HOUR })).blobsDeleted).toBe(0);
  });
});
