/*
 * The file store on any S3-compatible object store (AWS S3, MinIO, Ceph RGW, Cloudflare R2, ...): the same
 * content-addressed blobs as LocalBlobStore, under the key `<prefix>blobs/ab/cd/<sha256>`, so that several API and
 * worker processes share them.
 *
 * An object appears whole or not at all (S3 PUT is atomic), so there are no temporary objects to clean up. put()
 * always writes the object, even when it exists: S3 has no cheap "touch", and a write is what restarts the orphan
 * sweeper's grace period (LastModified) for the row about to point at the blob (see sweep-orphans.ts). The bytes
 * travel with a Content-MD5 the store verifies before it keeps them; reads check that the bytes hash to their key.
 */
import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { type FileStore, sha256Of, type StoredBlob } from './blob-store.ts';

/** Where and how to reach the bucket (Config['blobStore'] when its kind is 's3'). */
export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** Base URL of an S3-compatible service; null for AWS S3 itself. */
  endpoint: string | null;
  /** Bucket in the path (http://host/bucket/key) rather than the host name; most self-hosted stores need it. */
  forcePathStyle: boolean;
  /** Prepended to every key, '' or ending in '/'. */
  prefix: string;
  /** Explicit keys; null leaves them to the SDK's chain (AWS_* variables, shared files, instance or pod roles). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
  /** Budget of a connection attempt and of socket inactivity during a request. */
  timeoutMs?: number;
  /** Keys per listing request (S3's maximum, 1,000, by default). */
  listPageSize?: number;
}

/** A blob listed by the sweeper. */
export interface ListedBlob {
  sha256: string;
  lastModified: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The error read() and stream() throw for a missing blob: ENOENT like the local store's. */
export class MissingBlobError extends Error {
  readonly code = 'ENOENT';
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}

/** Content-addressed blobs in an S3 bucket. */
export class S3BlobStore implements FileStore {
  readonly bucket: string;
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly listPageSize: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.listPageSize = options.listPageSize ?? 1000;
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them: the CRC32 headers and trailers the SDK adds by default are refused by
      // several S3-compatible stores. Integrity is ours: Content-MD5 on the way in, SHA-256 of the key on the way out.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: Math.min(timeoutMs, 10_000), requestTimeout: timeoutMs },
    });
  }

  /** The object key of a blob; refuses anything that is not a SHA-256 in hex. */
  keyOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a SHA-256 hex digest: ${sha256}`);
    return `${this.prefix}blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  /** Where the store is, for logs and errors (no credentials). */
  describe(): string {
    return `s3://${this.bucket}/${this.prefix}blobs/`;
  }

  /** Throws when the bucket cannot be reached with these settings (start-up and readiness). */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(bytes: Buffer): Promise<StoredBlob> {
    const sha256 = sha256Of(bytes);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(sha256),
        Body: bytes,
        ContentLength: bytes.length,
        ContentMD5: createHash('md5').update(bytes).digest('base64'),
        ContentType: 'application/octet-stream',
      }),
    );
    return { sha256, size: bytes.length };
  }

  async read(sha256: string): Promise<Buffer> {
    const body = await this.get(sha256);
    const bytes = Buffer.from(await body.transformToByteArray());
    if (sha256Of(bytes) !== sha256) throw new Error(`blob ${sha256} read from ${this.describe()} is corrupt`);
    return bytes;
  }

  /** The blob as a stream, ending in an error instead of its last bytes when they do not hash to the key. */
  async stream(sha256: string): Promise<Readable> {
    const body = await this.get(sha256); // a missing blob fails here, before a response starts
    const hash = createHash('sha256');
    const describe = this.describe();
    // The last chunk is held back until the whole blob is hashed, so altered bytes never arrive complete: a download
    // of them ends short of its Content-Length, which every client takes for a failure.
    let held: Buffer | null = null;
    const checked = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        const previous = held;
        held = chunk;
        done(null, previous ?? undefined);
      },
      flush(done) {
        if (hash.digest('hex') !== sha256) return done(new Error(`blob ${sha256} read from ${describe} is corrupt`));
        done(null, held ?? undefined);
      },
    });
    // An error on either side (the store's connection, a client that hung up) destroys both.
    return pipeline(body as unknown as Readable, checked, () => {});
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.lastModified(sha256)) !== null;
  }

  /** When the blob was last written (ms), or null when there is none. */
  async lastModified(sha256: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
      return head.LastModified?.getTime() ?? Date.now();
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Every blob in the store, a page (up to 1,000) at a time; keys that are not blobs are skipped. */
  async *list(): AsyncGenerator<ListedBlob[]> {
    const prefix = `${this.prefix}blobs/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          MaxKeys: this.listPageSize,
        }),
      );
      const blobs: ListedBlob[] = [];
      for (const object of page.Contents ?? []) {
        const sha256 = object.Key?.slice(object.Key.lastIndexOf('/') + 1) ?? '';
        if (!SHA256_HEX.test(sha256) || object.Key !== this.keyOf(sha256)) continue;
        blobs.push({ sha256, lastModified: object.LastModified?.getTime() ?? Date.now() });
      }
      yield blobs;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Deletes a blob (no error when it is already gone); only the orphan sweeper calls this. */
  async delete(sha256: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }

  private async get(sha256: string) {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
      if (!object.Body) throw new Error(`blob ${sha256} at ${this.describe()} has no body`);
      return object.Body;
    } catch (error) {
      if (isNotFound(error)) throw new MissingBlobError(`blob ${sha256} is missing from ${this.describe()}`);
      throw error;
    }
  }
}
