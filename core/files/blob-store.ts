/*
 * The file store: immutable blobs addressed by the SHA-256 of their bytes, under
 * `<dataDir>/blobs/ab/cd/<sha256>`. A blob is written to a temporary file in its own folder, fsynced, renamed into
 * place and the folder fsynced, so a reader never sees half a file and a blob put() returned is on disk even if
 * the machine loses power right after. Callers write the blob FIRST and the database row that points at it SECOND
 * (DESIGN.md "Data"): a crash in between leaves an orphan blob, which sweep-orphans.ts removes once it is older
 * than its grace period, never a row pointing at nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** What a stored blob is known by. */
export interface StoredBlob {
  sha256: string;
  size: number;
}

/** Where document files live; the local disk by default (an S3-compatible store can implement the same). */
export interface FileStore {
  /** Stores the bytes (idempotent) and returns their address. */
  put(bytes: Buffer): Promise<StoredBlob>;
  /** The whole blob; throws when it is missing. */
  read(sha256: string): Promise<Buffer>;
  /** The blob as a stream; throws when it is missing. */
  stream(sha256: string): Promise<Readable>;
  exists(sha256: string): Promise<boolean>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Suffix of a blob being written: a file with it after a crash is debris (the sweeper removes it). */
export const TEMP_SUFFIX = '.tmp';

/** fsyncs a folder, so the names created or renamed in it survive a power loss. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems cannot fsync a folder (EINVAL); their renames are as durable as they get.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
  } finally {
    await handle.close();
  }
}

/** Creates a blob's folder; when new folders were made, fsyncs each one's parent so they survive too. */
async function makeFolder(folder: string): Promise<void> {
  const first = await mkdir(folder, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let dir = folder; ; dir = path.dirname(dir)) {
    await syncFolder(path.dirname(dir));
    if (dir === first || path.dirname(dir) === dir) return;
  }
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Content-addressed blobs on the local disk. */
export class LocalBlobStore implements FileStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
  }

  /** The file a blob lives in: blobs/ab/cd/abcd…; refuses anything that is not a SHA-256 in hex. */
  pathOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a SHA-256 hex digest: ${sha256}`);
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(bytes: Buffer): Promise<StoredBlob> {
    const sha256 = sha256Of(bytes);
    const target = this.pathOf(sha256);
    // Already stored: touch it, so the sweeper's grace period starts again for the row about to point at it (it
    // may be an orphan of an earlier crash, old enough to be swept while this caller's transaction is open).
    if (await this.touch(target)) return { sha256, size: bytes.length };
    await makeFolder(path.dirname(target));
    const temp = `${target}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
    try {
      const handle = await open(temp, 'wx', 0o640);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target); // atomic within one file system; a concurrent writer wrote the same bytes
      await syncFolder(path.dirname(target));
    } finally {
      await rm(temp, { force: true });
    }
    return { sha256, size: bytes.length };
  }

  /** Sets a stored blob's modification time to now; false when there is no such blob. */
  private async touch(file: string): Promise<boolean> {
    const now = new Date();
    try {
      await utimes(file, now, now);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async read(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  async stream(sha256: string): Promise<Readable> {
    const file = this.pathOf(sha256);
    await stat(file); // fail here (ENOENT) rather than in the middle of a response
    return createReadStream(file);
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}
