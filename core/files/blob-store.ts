/*
 * The file store: immutable blobs addressed by the SHA-256 of their bytes, under
 * `<dataDir>/blobs/ab/cd/<sha256>`. A blob is written to a temporary file in the same folder tree and renamed
 * into place, so a reader never sees half a file; writing bytes that are already stored changes nothing.
 * Callers write the blob FIRST and the database row that points at it SECOND (DESIGN.md "Data"): a crash in
 * between leaves an orphan blob (harmless), never a row pointing at nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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
    if (await this.exists(sha256)) return { sha256, size: bytes.length };
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o640 });
      await rename(temp, target); // atomic within one file system; a concurrent writer wrote the same bytes
    } finally {
      await rm(temp, { force: true });
    }
    return { sha256, size: bytes.length };
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
