import { copyFileSync, cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { PreparingPgClient } from './prepared-client.ts';
import { ensurePrivateFolder } from '../files/private-folder.ts';

export type { Knex } from 'knex';

const INT8 = 20;
const NUMERIC = 1700;

// pg returns int8 (and count()) as strings, PGlite as numbers: make both plain numbers.
pg.types.setTypeParser(INT8, (value) => Number(value));
pg.types.setTypeParser(NUMERIC, (value) => Number(value));

/** The database handle: knex over PostgreSQL or over one embedded PGlite instance. */
export interface Database {
  kind: DatabaseConfig['kind'];
  knex: Knex;
  /** The embedded instance, when kind is pglite. */
  pglite: PGlite | null;
  /** The connection URL, when kind is postgres (pg-boss opens its own pool with it). */
  url: string | null;
  close(): Promise<void>;
}

/**
 * The prepared embedded database of the compiled build (scripts/build-db-template.ts): a PGlite data folder with every
 * core and plugin migration applied, nothing per install. Next to dist/server/core/db/index.js only; under tsx (dev,
 * tests) there is none, and PGlite creates the database.
 */
const PGLITE_TEMPLATE = fileURLToPath(new URL('../../pglite-template', import.meta.url));

/**
 * A new data folder starts as a copy of the prepared database, so its first start has no migration left to run. The
 * files are copied on disk: PGlite's loadDataDir unpacked a tarball in memory and kept ~120 MB of it after the start.
 * PG_VERSION, the mark of a database PGlite resumes, comes last, so a copy cut short is made again on the next start.
 */
function seedFromTemplate(dataDir: string | null): void {
  if (!dataDir || existsSync(path.join(dataDir, 'PG_VERSION')) || !existsSync(PGLITE_TEMPLATE)) return;
  const version = path.join(PGLITE_TEMPLATE, 'PG_VERSION');
  cpSync(PGLITE_TEMPLATE, dataDir, { recursive: true, filter: (source) => source !== version });
  copyFileSync(version, path.join(dataDir, 'PG_VERSION'));
}

/**
 * PostgreSQL settings of the embedded instance, over PGlite's defaults and the data folder's postgresql.conf. initdb's
 * shared_buffers (128MB) is a buffer pool PGlite allocates and touches inside its WebAssembly memory, about 100 MB of
 * the process's resident memory; the files are in the OS page cache as well, so a smaller pool costs little
 * (npm run bench:start, README "Performance notes").
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=32MB'];

/**
 * V8 compiles PGlite's 9 MB WebAssembly module with one background task instead of one per core: each compiling
 * thread kept its own malloc arena of ~20 MB after the start, and the start is no slower (one core does the work).
 * Read when a module is compiled, so it is set before the first PGlite; it concerns WebAssembly compilation only.
 */
function limitWasmCompilation(): void {
  v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
}

/** Opens the database described by the configuration (nothing is migrated here). */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'postgres') {
    const knex = knexFactory({
      // knex's pg client, preparing the statements that ask for it (see prepared-client.ts).
      client: PreparingPgClient as never,
      // JIT off: our queries are short, and a subquery PostgreSQL estimates as costly (a group holding a million
      // tasks) made it spend ~500 ms compiling a list query that runs in 30 ms (npm run bench:flows). No parallel
      // workers either, for the same estimate: a page read from an index in 0.2 ms took 17 ms once a worker process
      // had to start for it. Throughput comes from many requests at once, not from one query on several cores.
      connection: { connectionString: config.url, options: '-c jit=off -c max_parallel_workers_per_gather=0' },
      pool: { min: 0, max: 10 },
    });
    return { kind: 'postgres', knex, pglite: null, url: config.url, close: () => knex.destroy() };
  }
  if (!config.loadFrom) seedFromTemplate(config.dataDir);
  const options = {
    parsers: { [INT8]: (value: string) => Number(value), [NUMERIC]: (value: string) => Number(value) },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    ...(config.loadFrom ? { loadDataDir: config.loadFrom } : {}),
  };
  // The database files are the owner's only (0700), whatever the umask; an existing folder is narrowed too.
  if (config.dataDir) ensurePrivateFolder(config.dataDir);
  limitWasmCompilation();
  const pglite = config.dataDir ? new PGlite(config.dataDir, options) : new PGlite(options);
  await pglite.waitReady;
  // PGlite has a single connection: knex-pglite pins the pool to one, so every query (ours and pg-boss's) queues.
  const knex = knexFactory({ client: ClientPgLite as never, connection: () => ({ pglite }) as never });
  return {
    kind: 'pglite',
    knex,
    pglite,
    url: null,
    close: async () => {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** Runs `work` in a transaction, or inside the caller's one when `trx` is given. */
export async function inTransaction<T>(
  db: Knex,
  work: (trx: Knex.Transaction) => Promise<T>,
  trx?: Knex.Transaction,
): Promise<T> {
  if (trx) return work(trx);
  return db.transaction(work);
}

/**
 * Executes raw SQL with $n parameters on the connection knex holds (its pool, or a transaction's). With a `name`,
 * PostgreSQL keeps the statement prepared per connection, so a hot query is planned once instead of every time.
 */
export async function executeOnConnection(
  knex: Knex,
  text: string,
  values?: unknown[],
  name?: string,
): Promise<{ rows: Record<string, unknown>[] }> {
  const client = knex.client as {
    acquireConnection(): Promise<unknown>;
    releaseConnection(connection: unknown): Promise<unknown>;
  };
  const connection = (await client.acquireConnection()) as {
    query(
      text: string | { name: string; text: string; values?: unknown[] },
      values?: unknown[],
    ): Promise<{ rows: Record<string, unknown>[] }>;
    exec?(text: string): Promise<{ rows: Record<string, unknown>[] }[]>;
  };
  try {
    if ((!values || values.length === 0) && connection instanceof PGlite) {
      // PGlite's query() takes one statement; scripts (pg-boss migrations) go through exec().
      const results = await connection.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    }
    if (name && !(connection instanceof PGlite)) return await connection.query({ name, text, values });
    return await connection.query(text, values);
  } finally {
    await client.releaseConnection(connection);
  }
}
