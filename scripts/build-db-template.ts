// Prepares the embedded database a new data folder starts from: PGlite's initdb and every core and plugin migration
// run once at build time (through the compiled server's own createService, so exactly the migrations `npm start`
// runs), and the result is saved with dumpDataDir() next to the compiled server. openDatabase() loads it into a data
// folder that has no database yet; the start's migration pass then finds nothing (or only newer ones) to apply.
// Nothing per install is in it: the master key lives in the data folder (master.key or KEIYAKU_MASTER_KEY), and its
// check row is deleted here, so each install writes its own on first start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The template's file name inside the compiled server folder (core/db/index.ts looks for it there). */
export const DB_TEMPLATE_FILE = 'pglite-template.tar.gz';

/** Builds `<serverDir>/pglite-template.tar.gz` with the compiled server found in serverDir. */
export async function buildDbTemplate(serverDir: string): Promise<void> {
  const load = (file: string) => import(pathToFileURL(path.join(serverDir, file)).href);
  const [{ loadConfig }, { createLogger }, { createService }, { openDatabase }] = await Promise.all([
    load('core/config.js'),
    load('core/log.js'),
    load('core/service.js'),
    load('core/db/index.js'),
  ]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-db-template-'));
  try {
    // A clean environment: the operator's own settings (a database URL, plugin switches) do not shape the template.
    const config = loadConfig({ KEIYAKU_DATA_DIR: dataDir, LOG_LEVEL: 'silent', KEIYAKU_WORKERS: 'false' });
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      const service = await createService(config, { logger: createLogger('silent'), database });
      await service.close();
      // Per install, written by the first start: the row that checks the master key against this database, and the
      // month billing started in (the billing plugin's first start). Only the migrations' own seed rows (the terms)
      // and pg-boss's schema and queues stay.
      await database.knex('master_key_check').delete();
      await database.knex('billing_start').delete();
      await database.pglite.query('VACUUM FULL');
      const dump: Blob = await database.pglite.dumpDataDir('gzip');
      writeFileSync(path.join(serverDir, DB_TEMPLATE_FILE), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
