import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { S3BlobStoreOptions } from './files/s3-blob-store.ts';
import { normaliseCidr } from './access/ip.ts';

/** Where the database lives: PostgreSQL by URL, or the embedded PGlite under the data folder. */
export type DatabaseConfig =
  { kind: 'postgres'; url: string; schema?: string } | { kind: 'pglite'; dataDir: string | null; loadFrom?: Blob };

export interface Config {
  port: number;
  host: string;
  /** Origin users reach the workbench at; mails link to it. */
  publicUrl: string;
  /** The service operator's token for /operator operations (`keiyaku orgs ...`); null switches them off. */
  operatorToken: string | null;
  /** The bearer token GET /metrics asks for (KEIYAKU_METRICS_TOKEN); null: /metrics is not served. */
  metricsToken: string | null;
  dataDir: string;
  database: DatabaseConfig;
  /** 32-byte key that encrypts secrets at rest and derives the token-signing key. */
  masterKey: Buffer;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * Reverse proxies believed about X-Forwarded-For and X-Forwarded-Proto (TRUSTED_PROXIES), as normalised CIDRs;
   * empty means the socket peer is the client (core/http/client-address.ts).
   */
  trustedProxies: string[];
  /** How long a client may take to send its headers, its whole request, and to reuse an idle connection. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  logLevel: string;
  accessTokenTtlSeconds: number;
  /**
   * Multiplies the budget of every rate limit (KEIYAKU_RATE_LIMIT_SCALE, default 1; core/access/rate-limits.ts):
   * above 1 for many users behind one address, or for test suites that sign up hundreds of organizations.
   */
  rateLimitScale: number;
  /**
   * Memory of one argon2id password hash in KiB (KEIYAKU_PASSWORD_HASH_MEMORY_KIB; null: OWASP's baseline, see
   * core/auth/passwords.ts). Lower only where nobody's password is at stake: the test suites, which sign up and in
   * thousands of times.
   */
  passwordHashMemoryKiB: number | null;
  /** Plugins turned off by name (KEIYAKU_PLUGINS_DISABLED=mail,box). */
  disabledPlugins: string[];
  /** Raw environment slice per plugin, validated by each plugin's own schema. */
  pluginConfig: Record<string, Record<string, string>>;
  /** Validate responses against the contract too (tests and development). */
  validateResponses: boolean;
  /**
   * What this process does (KEIYAKU_ROLE): `all` (the default) serves HTTP and runs the job workers; `api` serves
   * HTTP only; `worker` runs the jobs and the periodic work and answers only /healthz, /readyz and /metrics.
   */
  role: ProcessRole;
  /** Run job workers in this process (role all or worker, unless KEIYAKU_WORKERS=false). */
  runWorkers: boolean;
  /** The national corporate number service (Web-API); a null url turns lookups off. */
  corporateNumberApi: { url: string | null; appId: string; timeoutMs: number };
  /** clamd for the malware-scan plugin (CLAMAV_HOST/PORT/TIMEOUT_MS); a null host means the built-in engine. */
  clamav: { host: string | null; port: number; timeoutMs: number };
  /**
   * Signing: TSA_URL (null = the built-in local TSA), the business-operator PKCS#12 (null = a key issued by the local
   * CA), extra trust anchors for verification (PEM file), and how many days before a long-term document's last
   * timestamp certificate expires it is re-timestamped.
   */
  signing: {
    tsaUrl: string | null;
    tsaTimeoutMs: number;
    operatorP12File: string | null;
    operatorP12Password: string;
    trustAnchorsFile: string | null;
    renewalMarginDays: number;
  };
  /**
   * The worker pool that parses PDFs we did not make (core/pdf-work): how many workers, and each task's budget of
   * wall time and heap.
   */
  pdfWork: { workers: number; timeoutMs: number; memoryMb: number };
  /**
   * The orphan-blob sweeper (core/files/sweep-orphans.ts): how often it runs, and how old an unreferenced blob or a
   * temporary file must be before it is removed (uploads and signings in flight are younger).
   */
  blobSweep: { intervalSeconds: number; graceSeconds: number };
  /**
   * Where document files live (KEIYAKU_BLOB_STORE): the data folder by default, or an S3-compatible bucket that
   * several processes share (core/files/s3-blob-store.ts). Null credentials leave them to the AWS SDK's chain.
   */
  blobStore: BlobStoreConfig;
}

/** The blob store's settings; see Config['blobStore']. */
export type BlobStoreConfig = { kind: 'local' } | ({ kind: 's3' } & Required<Omit<S3BlobStoreOptions, 'listPageSize'>>);

export class ConfigError extends Error {}

function trustedProxiesFrom(env: NodeJS.ProcessEnv): string[] {
  const legacy = env.TRUST_PROXY;
  // TRUST_PROXY=true believed X-Forwarded-For from anyone; which proxies to believe must now be named.
  if (legacy !== undefined && legacy !== '' && !['0', 'false', 'no'].includes(legacy.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY is no longer supported (got "${legacy}"): list your reverse proxies' addresses or CIDRs in ` +
        'TRUSTED_PROXIES instead, e.g. TRUSTED_PROXIES=10.0.0.0/8,127.0.0.1',
    );
  }
  const entries = (env.TRUSTED_PROXIES || '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    const cidr = normaliseCidr(entry);
    if (!cidr) throw new ConfigError(`TRUSTED_PROXIES: "${entry}" is not an IPv4 or IPv6 address or CIDR`);
    return cidr;
  });
}

function httpFrom(env: NodeJS.ProcessEnv): Config['http'] {
  const http = {
    headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000),
    // A 35 MB upload on a slow line (1 Mbit/s) takes about 4.5 minutes.
    requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 300_000, 100, 3_600_000),
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  }
  return http;
}

function rateLimitScaleFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.KEIYAKU_RATE_LIMIT_SCALE;
  if (raw === undefined || raw === '') return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0.01 || value > 100_000) {
    throw new ConfigError(`KEIYAKU_RATE_LIMIT_SCALE must be a number from 0.01 to 100000, got "${raw}"`);
  }
  return value;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

function roleFrom(env: NodeJS.ProcessEnv): { role: ProcessRole; runWorkers: boolean } {
  const raw = env.KEIYAKU_ROLE?.trim() || 'all';
  if (!(PROCESS_ROLES as readonly string[]).includes(raw)) {
    throw new ConfigError(`KEIYAKU_ROLE must be one of ${PROCESS_ROLES.join(', ')}, got "${raw}"`);
  }
  const role = raw as ProcessRole;
  const workers = bool(env, 'KEIYAKU_WORKERS', role !== 'api');
  if (role === 'worker' && !workers)
    throw new ConfigError('KEIYAKU_ROLE=worker runs job workers: unset KEIYAKU_WORKERS');
  if (role === 'api' && workers) throw new ConfigError('KEIYAKU_ROLE=api runs no job workers: unset KEIYAKU_WORKERS');
  return { role, runWorkers: workers };
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function masterKeyFrom(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const raw = env.KEIYAKU_MASTER_KEY;
  if (raw) {
    const key = Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('KEIYAKU_MASTER_KEY must be 32 bytes in base64');
    return key;
  }
  // The embedded default keeps a generated key beside the data it protects, readable by the owner only.
  const file = path.join(dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // createService also narrows an existing one
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new ConfigError(`${file} does not hold a 32-byte base64 key`);
  return key;
}

function pluginSlices(env: NodeJS.ProcessEnv): Record<string, Record<string, string>> {
  // KEIYAKU_PLUGIN_MAIL_FROM=x -> { mail: { FROM: 'x' } }
  const slices: Record<string, Record<string, string>> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^KEIYAKU_PLUGIN_([A-Z0-9]+)_(.+)$/.exec(name);
    if (!match || value === undefined) continue;
    const plugin = match[1]!.toLowerCase();
    slices[plugin] = { ...slices[plugin], [match[2]!]: value };
  }
  return slices;
}

function corporateNumberApiFrom(env: NodeJS.ProcessEnv): Config['corporateNumberApi'] {
  const url = env.CORPORATE_NUMBER_API_URL || null;
  if (url && !/^https?:\/\/[^\s]+$/.test(url)) {
    throw new ConfigError('CORPORATE_NUMBER_API_URL must be an http:// or https:// URL');
  }
  const appId = env.CORPORATE_NUMBER_API_APP_ID || '';
  if (url && !appId) throw new ConfigError('CORPORATE_NUMBER_API_APP_ID is required with CORPORATE_NUMBER_API_URL');
  return { url, appId, timeoutMs: int(env, 'CORPORATE_NUMBER_API_TIMEOUT_MS', 3000, 100, 30_000) };
}

function signingFrom(env: NodeJS.ProcessEnv): Config['signing'] {
  const tsaUrl = env.TSA_URL || null;
  if (tsaUrl && !/^https?:\/\/[^\s]+$/.test(tsaUrl))
    throw new ConfigError('TSA_URL must be an http:// or https:// URL');
  const operatorP12File = env.SIGNING_OPERATOR_P12_FILE || null;
  if (operatorP12File && !existsSync(operatorP12File)) {
    throw new ConfigError(`SIGNING_OPERATOR_P12_FILE ${operatorP12File} does not exist`);
  }
  const trustAnchorsFile = env.SIGNING_TRUST_ANCHORS_FILE || null;
  if (trustAnchorsFile && !existsSync(trustAnchorsFile)) {
    throw new ConfigError(`SIGNING_TRUST_ANCHORS_FILE ${trustAnchorsFile} does not exist`);
  }
  return {
    tsaUrl,
    tsaTimeoutMs: int(env, 'TSA_TIMEOUT_MS', 10_000, 100, 120_000),
    operatorP12File,
    operatorP12Password: env.SIGNING_OPERATOR_P12_PASSWORD ?? '',
    trustAnchorsFile,
    renewalMarginDays: int(env, 'SIGNING_RENEWAL_MARGIN_DAYS', 30, 1, 365),
  };
}

function pdfWorkFrom(env: NodeJS.ProcessEnv): Config['pdfWork'] {
  return {
    // One core stays with the event loop (and the database client) so requests are answered while PDFs are parsed.
    workers: int(env, 'KEIYAKU_PDF_WORKERS', Math.max(1, availableParallelism() - 1), 1, 64),
    timeoutMs: int(env, 'KEIYAKU_PDF_WORK_TIMEOUT_MS', 20_000, 100, 600_000),
    memoryMb: int(env, 'KEIYAKU_PDF_WORK_MEMORY_MB', 512, 64, 16_384),
  };
}

const S3_SETTINGS = [
  'KEIYAKU_S3_BUCKET',
  'KEIYAKU_S3_REGION',
  'KEIYAKU_S3_ENDPOINT',
  'KEIYAKU_S3_FORCE_PATH_STYLE',
  'KEIYAKU_S3_PREFIX',
  'KEIYAKU_S3_ACCESS_KEY_ID',
  'KEIYAKU_S3_SECRET_ACCESS_KEY',
  'KEIYAKU_S3_SESSION_TOKEN',
  'KEIYAKU_S3_TIMEOUT_MS',
];

function blobStoreFrom(env: NodeJS.ProcessEnv): BlobStoreConfig {
  const kind = env.KEIYAKU_BLOB_STORE || 'local';
  if (kind === 'local') {
    // Settings for a bucket that is not used would store every document on the local disk unnoticed.
    const stray = S3_SETTINGS.filter((name) => env[name]);
    if (stray.length > 0) {
      throw new ConfigError(`${stray.join(', ')} set, but KEIYAKU_BLOB_STORE is not s3 (set KEIYAKU_BLOB_STORE=s3)`);
    }
    return { kind: 'local' };
  }
  if (kind !== 's3') throw new ConfigError(`KEIYAKU_BLOB_STORE must be local or s3, got "${kind}"`);
  const bucket = env.KEIYAKU_S3_BUCKET || '';
  if (!bucket) throw new ConfigError('KEIYAKU_S3_BUCKET is required with KEIYAKU_BLOB_STORE=s3');
  if (!/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(`KEIYAKU_S3_BUCKET: "${bucket}" is not a bucket name (3-63 of a-z, 0-9, '.', '-', '_')`);
  }
  const endpoint = env.KEIYAKU_S3_ENDPOINT || null;
  if (endpoint && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(endpoint)) {
    throw new ConfigError('KEIYAKU_S3_ENDPOINT must be an http:// or https:// URL');
  }
  const prefix = (env.KEIYAKU_S3_PREFIX || '').replace(/\/+$/, '');
  const part = /^[A-Za-z0-9!_.*'()-]+$/;
  if (prefix && !prefix.split('/').every((p) => part.test(p) && p !== '.' && p !== '..')) {
    throw new ConfigError(
      `KEIYAKU_S3_PREFIX: "${prefix}" must be parts of letters, digits and !_.*'()- joined by / (no empty, . or .. part)`,
    );
  }
  const accessKeyId = env.KEIYAKU_S3_ACCESS_KEY_ID || '';
  const secretAccessKey = env.KEIYAKU_S3_SECRET_ACCESS_KEY || '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('KEIYAKU_S3_ACCESS_KEY_ID and KEIYAKU_S3_SECRET_ACCESS_KEY go together: set both or neither');
  }
  const sessionToken = env.KEIYAKU_S3_SESSION_TOKEN || '';
  if (sessionToken && !accessKeyId) {
    throw new ConfigError('KEIYAKU_S3_SESSION_TOKEN needs KEIYAKU_S3_ACCESS_KEY_ID and KEIYAKU_S3_SECRET_ACCESS_KEY');
  }
  return {
    kind: 's3',
    bucket,
    // Self-hosted stores accept any region in the signature; us-east-1 is what most expect.
    region: env.KEIYAKU_S3_REGION || env.AWS_REGION || 'us-east-1',
    endpoint: endpoint?.replace(/\/$/, '') ?? null,
    forcePathStyle: bool(env, 'KEIYAKU_S3_FORCE_PATH_STYLE', endpoint !== null),
    prefix: prefix ? `${prefix}/` : '',
    credentials: accessKeyId ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } : null,
    timeoutMs: int(env, 'KEIYAKU_S3_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}

/** A secret an operator's tool presents as a bearer token (the operator CLI, Prometheus): long, or none. */
function bearerSecretFrom(env: NodeJS.ProcessEnv, name: string): string | null {
  const token = env[name] || null;
  if (token && token.length < 24) throw new ConfigError(`${name} must be at least 24 characters`);
  return token;
}

/** Reads and validates the configuration; no DATABASE_URL means the embedded PGlite under the data folder. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const dataDir = path.resolve(env.KEIYAKU_DATA_DIR || './data');
  const url = env.DATABASE_URL;
  if (url && !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  }
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  const { role, runWorkers } = roleFrom(env);
  // The embedded database lives inside one process: API and workers apart need PostgreSQL.
  if (role !== 'all' && !url) throw new ConfigError(`KEIYAKU_ROLE=${role} needs DATABASE_URL (PostgreSQL)`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: (env.KEIYAKU_PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    operatorToken: bearerSecretFrom(env, 'KEIYAKU_OPERATOR_TOKEN'),
    metricsToken: bearerSecretFrom(env, 'KEIYAKU_METRICS_TOKEN'),
    dataDir,
    database: url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') },
    masterKey: masterKeyFrom(env, dataDir),
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Keiyaku <no-reply@keiyaku.localhost>',
    trustedProxies: trustedProxiesFrom(env),
    http: httpFrom(env),
    logLevel: env.LOG_LEVEL || 'info',
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 30, 3600),
    rateLimitScale: rateLimitScaleFrom(env),
    passwordHashMemoryKiB: env.KEIYAKU_PASSWORD_HASH_MEMORY_KIB
      ? int(env, 'KEIYAKU_PASSWORD_HASH_MEMORY_KIB', 0, 1024, 1_048_576)
      : null,
    disabledPlugins: (env.KEIYAKU_PLUGINS_DISABLED || '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    pluginConfig: pluginSlices(env),
    validateResponses: bool(env, 'KEIYAKU_VALIDATE_RESPONSES', env.NODE_ENV !== 'production'),
    role,
    runWorkers,
    corporateNumberApi: corporateNumberApiFrom(env),
    signing: signingFrom(env),
    pdfWork: pdfWorkFrom(env),
    blobSweep: {
      intervalSeconds: int(env, 'KEIYAKU_BLOB_SWEEP_INTERVAL_SECONDS', 3600, 1, 7 * 86_400),
      graceSeconds: int(env, 'KEIYAKU_BLOB_SWEEP_GRACE_SECONDS', 3600, 1, 30 * 86_400),
    },
    blobStore: blobStoreFrom(env),
    clamav: {
      host: env.CLAMAV_HOST || null,
      port: int(env, 'CLAMAV_PORT', 3310, 1, 65535),
      timeoutMs: int(env, 'CLAMAV_TIMEOUT_MS', 60_000, 100, 600_000),
    },
  };
}
