/*
 * A local server that speaks the S3 protocol (s3rver, on the file system) for tests of the S3 blob store: in a child
 * process, on a free port, with a temporary folder and one empty bucket. s3rver knows one account, S3RVER/S3RVER, and
 * does not check version-4 signatures; keys, listing with continuation tokens, HEAD, DELETE and LastModified behave
 * like S3. It runs in its own process because its continuation tokens are DES-encrypted, a cipher OpenSSL 3 offers
 * only with --openssl-legacy-provider: in the tests' process any listing longer than one page would fail with 500.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** How s3rver names the file of an object's bytes (lib/stores/filesystem.js). */
const OBJECT_SUFFIX = '._S3rver_object';

export interface S3TestServer {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The folder s3rver keeps its buckets in. */
  directory: string;
  /** The file s3rver keeps an object's bytes in (its mtime is the object's LastModified), or null when absent. */
  objectFile(key: string): string | null;
  /** Every object key in the bucket, from s3rver's folder. */
  keys(): string[];
  close(): Promise<void>;
}

/** Waits for s3rver's "listening on <address>:<port>" line; rejects when it exits first or takes 20 s. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`s3rver did not start in 20 s: ${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on [^\s]+:(\d+)/.exec(output);
      if (match) done(() => resolve(Number(match[1])));
    };
    const onExit = (code: number | null) => fail(new Error(`s3rver exited (${code}) before listening: ${output}`));
    const done = (then: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
      then();
    };
    const fail = (error: Error) => done(() => reject(error));
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Starts s3rver with a fresh bucket; close() stops it and removes its folder. */
export async function startS3Server(options: { bucket?: string } = {}): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'keiyaku-s3rver-'));
  const bucket = options.bucket ?? `keiyaku-test-${randomBytes(4).toString('hex')}`;
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin/s3rver.js');
  const args = ['--openssl-legacy-provider', bin, '-d', directory, '-a', '127.0.0.1', '-p', '0', '--silent'];
  const child = spawn(process.execPath, [...args, '--no-vhost-buckets', '--configure-bucket', bucket], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test process that ends without close() does not leave the server running.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let port: number;
  try {
    port = await listeningPort(child);
  } catch (error) {
    kill();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  child.stdout!.resume();
  child.stderr!.resume();
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let closed: Promise<void> | null = null;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    directory,
    objectFile(key) {
      const parts = key.split('/');
      const file = path.join(directory, bucket, ...parts.slice(0, -1), `${parts.at(-1)}${OBJECT_SUFFIX}`);
      return existsSync(file) ? file : null;
    },
    keys() {
      const root = path.join(directory, bucket);
      return readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith(OBJECT_SUFFIX))
        .map((name) => name.slice(0, -OBJECT_SUFFIX.length).split(path.sep).join('/'))
        .sort();
    },
    close() {
      closed ??= (async () => {
        process.off('exit', kill);
        child.kill('SIGTERM');
        await exited;
        rmSync(directory, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}

/** The service's environment for blobs in the server's bucket (pass to startApp's env). */
export function s3Env(server: S3TestServer, options: { prefix?: string } = {}): Record<string, string> {
  return {
    KEIYAKU_BLOB_STORE: 's3',
    KEIYAKU_S3_BUCKET: server.bucket,
    KEIYAKU_S3_ENDPOINT: server.endpoint,
    KEIYAKU_S3_REGION: 'us-east-1',
    KEIYAKU_S3_FORCE_PATH_STYLE: 'true',
    KEIYAKU_S3_ACCESS_KEY_ID: server.accessKeyId,
    KEIYAKU_S3_SECRET_ACCESS_KEY: server.secretAccessKey,
    ...(options.prefix ? { KEIYAKU_S3_PREFIX: options.prefix } : {}),
  };
}
