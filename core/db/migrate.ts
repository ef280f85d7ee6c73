import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

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

/** Applies every pending migration of one folder, recorded in its own table. */
export async function migrateFolder(knex: Knex, folder: URL, tableName: string): Promise<string[]> {
  const dir = folder.href.endsWith('/') ? folder : new URL(`${folder.href}/`);
  const [, applied] = (await knex.migrate.latest({
    migrationSource: new FolderMigrationSource(dir),
    tableName,
  })) as [number, string[]];
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
