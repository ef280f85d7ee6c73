import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../core/config.ts';
import { type Database, openDatabase } from '../../core/db/index.ts';
import { createLogger } from '../../core/log.ts';
import { createService } from '../../core/service.ts';
import { adminQuery, databaseUrl, type TestDbKind } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbKind: TestDbKind;
    dbTemplate: string;
  }
}

/**
 * Each test app runs under its own random master key; the template's key check value (stored under the setup's
 * key) is removed so that every copy stores its app's value on first start, as a new database does.
 */
async function forgetKeyCheck(database: Database): Promise<void> {
  await database.knex('master_key_check').delete();
  await database.close();
}

/**
 * Migrates one template database per run (core, plugins and the job queue's schema); each test file then copies it.
 * The project's KEIYAKU_TEST_DB says which kind: postgres (a template database) or pglite (a dump file).
 */
export default async function setup(project: TestProject) {
  const kind = (project.config.env?.KEIYAKU_TEST_DB ?? 'pglite') as TestDbKind;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-template-'));
  const config = loadConfig({ KEIYAKU_DATA_DIR: dataDir, LOG_LEVEL: 'silent', KEIYAKU_WORKERS: 'false' });
  const logger = createLogger('silent');

  if (kind === 'postgres') {
    const name = `keiyaku_tpl_${process.pid}_${Date.now()}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    config.database = { kind: 'postgres', url: databaseUrl(name) };
    const service = await createService(config, { logger });
    await service.close();
    await forgetKeyCheck(await openDatabase(config.database));
    project.provide('dbKind', 'postgres');
    project.provide('dbTemplate', name);
    rmSync(dataDir, { recursive: true, force: true });
    return async () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }

  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  const service = await createService(config, { logger, database });
  await service.close();
  await database.knex('master_key_check').delete();
  const dump = await database.pglite!.dumpDataDir('none');
  const file = path.join(dataDir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('dbKind', 'pglite');
  project.provide('dbTemplate', file);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
