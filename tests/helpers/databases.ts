import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DatabaseConfig } from '../../core/config.ts';

/** The server every PostgreSQL test database is created on (CI: the local PostgreSQL 15). */
export const POSTGRES_ADMIN_URL = process.env.KEIYAKU_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestDbKind = 'postgres' | 'pglite';

/** True when a PostgreSQL server answers at the admin URL within two seconds. */
export async function postgresReachable(url = POSTGRES_ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the admin database (CREATE/DROP DATABASE cannot run in a transaction). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database for one test file: a copy of the migrated template, never shared. */
export async function isolatedDatabase(
  kind: TestDbKind,
  template: string,
): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  if (kind === 'postgres') {
    const name = `keiyaku_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    return {
      config: { kind: 'postgres', url: databaseUrl(name) },
      drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  // The template is a dump of a migrated PGlite; loading it takes a fraction of migrating anew.
  return {
    config: { kind: 'pglite', dataDir: null, loadFrom: new Blob([readFileSync(template)]) },
    drop: async () => {},
  };
}
