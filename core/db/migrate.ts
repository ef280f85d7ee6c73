import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { onPostgresServer } from './prepared-client.ts';

const MIGRATION_FILE = /^\d{14}_[a-z0-9_-]+\.(ts|js)$/;

/**
 * Lists a folder's migrations by name without extension, so the same database accepts the .ts files run under
 * tsx and compiled .js ones.
 */
class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly folder: URL) {}

  async getMigrations(): Promise<string[]> {
    return readdirSync(fileURLToPath(this.folder))
      .filter((file) => MIGRATION_FILE.test(file) && !file.endsWith('.d.ts'))
      .sort();
  }

  getMigrationName(file: string): string {
    return file.replace(/\.(ts|js)$/, '');
  }

  async getMigration(file: string): Promise<Knex.Migration> {
    return import(pathToFileURL(fileURLToPath(new URL(file, this.folder))).href);
  }
}

export const coreMigrations = new URL('../../migrations/', import.meta.url);

/** The advisory lock key of migrations (any fixed 64-bit number; 'keiyaku-migrate' in ASCII, truncated). */
const MIGRATION_LOCK_KEY = '7738362087318970989';

/**
 * Runs `work` while this process holds PostgreSQL's advisory lock for migrations, on a connection of its own: API and
 * worker processes started together (a deployment, a scale-out) migrate one after the other, and the later ones
 * find nothing left to do, where knex's own lock table would fail them at once ("Migration table is already
 * locked"). pg-boss's queue creation takes it too (two first starts deadlocked on its partitions). The embedded
 * PGlite has one process and one connection: nothing to wait for.
 */
export async function underMigrationLock<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  if (!onPostgresServer(knex)) return work();
  const connection = await knex.client.acquireConnection();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

/** Applies every pending migration of one folder, recorded in its own table, one process at a time. */
export async function migrateFolder(knex: Knex, folder: URL, tableName: string): Promise<string[]> {
  const dir = folder.href.endsWith('/') ? folder : new URL(`${folder.href}/`);
  const [, applied] = (await underMigrationLock(knex, () =>
    knex.migrate.latest({ migrationSource: new FolderMigrationSource(dir), tableName }),
  )) as [number, string[]];
  return applied;
}

/** Names of the folder's migrations not yet applied. */
export async function pendingMigrations(knex: Knex, folder: URL, tableName: string): Promise<string[]> {
  const dir = folder.href.endsWith('/') ? folder : new URL(`${folder.href}/`);
  const [, pending] = (await knex.migrate.list({ migrationSource: new FolderMigrationSource(dir), tableName })) as [
    unknown[],
    { file: string }[] | string[],
  ];
  return pending.map((entry) => (typeof entry === 'string' ? entry : entry.file));
}
