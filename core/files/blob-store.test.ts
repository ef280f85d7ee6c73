import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobStore, sha256Of } from './blob-store.ts';

describe('LocalBlobStore', () => {
  let dataDir: string;
  let store: LocalBlobStore;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-blobs-'));
    store = new LocalBlobStore(dataDir);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stores a blob under blobs/ab/cd/<sha256> and reads it back', async () => {
    const bytes = Buffer.from('%PDF-1.4 hello');
    const stored = await store.put(bytes);
    expect(stored).toEqual({ sha256: sha256Of(bytes), size: bytes.length });
    const file = path.join(dataDir, 'blobs', stored.sha256.slice(0, 2), stored.sha256.slice(2, 4), stored.sha256);
    expect(await readFile(file)).toEqual(bytes);
    expect(await store.read(stored.sha256)).toEqual(bytes);
    expect(await store.exists(stored.sha256)).toBe(true);
  });

  it('is idempotent: the same bytes twice leave one file and no temporary files', async () => {
    const bytes = Buffer.from('same bytes');
    const [a, b] = await Promise.all([store.put(bytes), store.put(bytes)]);
    expect(a.sha256).toBe(b.sha256);
    const folder = path.dirname(store.pathOf(a.sha256));
    expect(readdirSync(folder)).toEqual([a.sha256]);
  });

  it('touches a blob that is stored again, so the orphan sweeper gives its new row a full grace period', async () => {
    const bytes = Buffer.from('stored, orphaned by a crash, uploaded again');
    const { sha256 } = await store.put(bytes);
    const file = store.pathOf(sha256);
    const dayAgo = new Date(Date.now() - 86_400_000);
    utimesSync(file, dayAgo, dayAgo);
    await store.put(bytes);
    expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(60_000);
    expect(await store.read(sha256)).toEqual(bytes);
  });

  it('makes new blob folders owner-only and leaves only the blob in its folder', async () => {
    const { sha256 } = await store.put(Buffer.from('first blob'));
    const folder = path.dirname(store.pathOf(sha256));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder)).toEqual([sha256]);
  });

  it('streams a stored blob', async () => {
    const bytes = Buffer.alloc(200_000, 7);
    const { sha256 } = await store.put(bytes);
    const chunks: Buffer[] = [];
    for await (const chunk of await store.stream(sha256)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);
  });

  it('reports a missing blob as absent and refuses to read it', async () => {
    const missing = sha256Of(Buffer.from('never stored'));
    expect(await store.exists(missing)).toBe(false);
    await expect(store.read(missing)).rejects.toThrow(/ENOENT/);
    await expect(store.stream(missing)).rejects.toThrow(/ENOENT/);
  });

  it('refuses an address that is not a SHA-256 (no path traversal)', () => {
    expect(() => store.pathOf('../../etc/passwd')).toThrow(/SHA-256/);
  });
});
