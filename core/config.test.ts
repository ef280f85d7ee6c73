import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const made: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keiyaku-config-'));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('configuration', () => {
  it('defaults to the embedded PGlite under the data folder, port 3000 and a generated master key', () => {
    const dir = dataDir();
    const config = loadConfig({ KEIYAKU_DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: path.join(dir, 'pgdata') });
    expect(config.masterKey).toHaveLength(32);
    expect(statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir }).masterKey.equals(config.masterKey)).toBe(true);
  });

  it("keeps OWASP's argon2id memory unless KEIYAKU_PASSWORD_HASH_MEMORY_KIB sets 1024-1048576 KiB", () => {
    const dir = dataDir();
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir }).passwordHashMemoryKiB).toBeNull();
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_PASSWORD_HASH_MEMORY_KIB: '65536' }).passwordHashMemoryKiB).toBe(
      65536,
    );
    for (const bad of ['512', '1.5', 'lots']) {
      expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_PASSWORD_HASH_MEMORY_KIB: bad })).toThrow(
        /KEIYAKU_PASSWORD_HASH_MEMORY_KIB must be an integer from 1024 to 1048576/,
      );
    }
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ KEIYAKU_DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db:5432/keiyaku' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/keiyaku' });
  });

  it('runs API and job workers in one process unless KEIYAKU_ROLE splits them (on PostgreSQL only)', () => {
    const pg = { KEIYAKU_DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db:5432/keiyaku' };
    expect(loadConfig(pg)).toMatchObject({ role: 'all', runWorkers: true });
    expect(loadConfig({ ...pg, KEIYAKU_WORKERS: 'false' })).toMatchObject({ role: 'all', runWorkers: false });
    expect(loadConfig({ ...pg, KEIYAKU_ROLE: 'api' })).toMatchObject({ role: 'api', runWorkers: false });
    expect(loadConfig({ ...pg, KEIYAKU_ROLE: 'worker' })).toMatchObject({ role: 'worker', runWorkers: true });
    expect(() => loadConfig({ ...pg, KEIYAKU_ROLE: 'jobs' })).toThrow(/KEIYAKU_ROLE must be one of all, api, worker/);
    expect(() => loadConfig({ ...pg, KEIYAKU_ROLE: 'worker', KEIYAKU_WORKERS: 'false' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...pg, KEIYAKU_ROLE: 'api', KEIYAKU_WORKERS: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dataDir(), KEIYAKU_ROLE: 'api' })).toThrow(/needs DATABASE_URL/);
  });

  it('refuses invalid values with a message that names the variable', () => {
    const dir = dataDir();
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_MASTER_KEY: 'c2hvcnQ=' })).toThrow(/32 bytes/);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });

  it('sizes the PDF worker pool: one worker per core but one, 20 s and 512 MB a task, each settable', () => {
    const dir = dataDir();
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir }).pdfWork).toEqual({
      workers: Math.max(1, availableParallelism() - 1),
      timeoutMs: 20_000,
      memoryMb: 512,
    });
    const set = loadConfig({
      KEIYAKU_DATA_DIR: dir,
      KEIYAKU_PDF_WORKERS: '3',
      KEIYAKU_PDF_WORK_TIMEOUT_MS: '5000',
      KEIYAKU_PDF_WORK_MEMORY_MB: '256',
    });
    expect(set.pdfWork).toEqual({ workers: 3, timeoutMs: 5000, memoryMb: 256 });
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_PDF_WORKERS: '0' })).toThrow(/KEIYAKU_PDF_WORKERS/);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_PDF_WORK_TIMEOUT_MS: '20s' })).toThrow(
      /KEIYAKU_PDF_WORK_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_PDF_WORK_MEMORY_MB: '16' })).toThrow(
      /KEIYAKU_PDF_WORK_MEMORY_MB/,
    );
  });

  it('hands each plugin its own KEIYAKU_PLUGIN_<NAME>_* slice and the list of plugins turned off', () => {
    const config = loadConfig({
      KEIYAKU_DATA_DIR: dataDir(),
      KEIYAKU_PLUGIN_MAIL_FROM: 'x@example.com',
      KEIYAKU_PLUGINS_DISABLED: 'mail, box',
    });
    expect(config.pluginConfig.mail).toEqual({ FROM: 'x@example.com' });
    expect(config.disabledPlugins).toEqual(['mail', 'box']);
  });

  it('trusts reverse proxies by address (TRUSTED_PROXIES) and refuses the old TRUST_PROXY=true', () => {
    const dir = dataDir();
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir }).trustedProxies).toEqual([]);
    const listed = loadConfig({ KEIYAKU_DATA_DIR: dir, TRUSTED_PROXIES: '10.1.0.0/16, ::1,192.0.2.7' });
    expect(listed.trustedProxies).toEqual(['10.1.0.0/16', '::1/128', '192.0.2.7/32']);
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir, TRUST_PROXY: 'false' }).trustedProxies).toEqual([]);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, TRUST_PROXY: 'true' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, TRUSTED_PROXIES: 'lb.internal' })).toThrow(/TRUSTED_PROXIES/);
  });

  it('bounds slow clients: 20 s for headers, 5 min for a request, 5 s idle keep-alive, each settable', () => {
    const dir = dataDir();
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir }).http).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 300_000,
      keepAliveTimeoutMs: 5_000,
    });
    expect(
      loadConfig({ KEIYAKU_DATA_DIR: dir, HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000' }).http,
    ).toEqual({ headersTimeoutMs: 1000, requestTimeoutMs: 300_000, keepAliveTimeoutMs: 2000 });
    expect(() =>
      loadConfig({ KEIYAKU_DATA_DIR: dir, HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });

  it('keeps blobs in the data folder unless KEIYAKU_BLOB_STORE=s3 names a bucket, and checks the S3 settings', () => {
    const dir = dataDir();
    expect(loadConfig({ KEIYAKU_DATA_DIR: dir }).blobStore).toEqual({ kind: 'local' });
    const s3 = { KEIYAKU_DATA_DIR: dir, KEIYAKU_BLOB_STORE: 's3', KEIYAKU_S3_BUCKET: 'keiyaku-docs' };
    // AWS itself: no endpoint, virtual-hosted keys, credentials from the SDK's chain.
    expect(loadConfig(s3).blobStore).toEqual({
      kind: 's3',
      bucket: 'keiyaku-docs',
      region: 'us-east-1',
      endpoint: null,
      forcePathStyle: false,
      prefix: '',
      credentials: null,
      timeoutMs: 30_000,
    });
    // A self-hosted store: path-style by default, a prefix, explicit keys.
    expect(
      loadConfig({
        ...s3,
        KEIYAKU_S3_ENDPOINT: 'http://minio:9000/',
        KEIYAKU_S3_REGION: 'ap-northeast-1',
        KEIYAKU_S3_PREFIX: 'prod/keiyaku/',
        KEIYAKU_S3_ACCESS_KEY_ID: 'AKIA',
        KEIYAKU_S3_SECRET_ACCESS_KEY: 'secret',
      }).blobStore,
    ).toMatchObject({
      endpoint: 'http://minio:9000',
      region: 'ap-northeast-1',
      forcePathStyle: true,
      prefix: 'prod/keiyaku/',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
    });
    const refused = (env: Record<string, string>, message: RegExp) => {
      expect(() => loadConfig({ ...s3, ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...s3, ...env })).toThrow(message);
    };
    refused({ KEIYAKU_BLOB_STORE: 'gcs' }, /KEIYAKU_BLOB_STORE must be local or s3/);
    refused({ KEIYAKU_S3_BUCKET: '' }, /KEIYAKU_S3_BUCKET is required/);
    refused({ KEIYAKU_S3_BUCKET: 'Bad Bucket' }, /KEIYAKU_S3_BUCKET/);
    refused({ KEIYAKU_S3_ENDPOINT: 'minio:9000' }, /KEIYAKU_S3_ENDPOINT/);
    refused({ KEIYAKU_S3_PREFIX: 'a/../b' }, /KEIYAKU_S3_PREFIX/);
    refused({ KEIYAKU_S3_PREFIX: '/abs' }, /KEIYAKU_S3_PREFIX/);
    refused({ KEIYAKU_S3_ACCESS_KEY_ID: 'AKIA' }, /set both or neither/);
    refused({ KEIYAKU_S3_FORCE_PATH_STYLE: 'maybe' }, /KEIYAKU_S3_FORCE_PATH_STYLE/);
    // The error names the setting, never a secret's value.
    expect(() => loadConfig({ ...s3, KEIYAKU_S3_SECRET_ACCESS_KEY: 'top-secret-value' })).toThrow(
      /^(?!.*top-secret-value).*KEIYAKU_S3_SECRET_ACCESS_KEY/,
    );
    // S3 settings without KEIYAKU_BLOB_STORE=s3 would leave documents on the local disk unnoticed.
    expect(() => loadConfig({ KEIYAKU_DATA_DIR: dir, KEIYAKU_S3_BUCKET: 'keiyaku-docs' })).toThrow(
      /KEIYAKU_S3_BUCKET set, but KEIYAKU_BLOB_STORE is not s3/,
    );
  });
});
