// Prepares the embedded database a new data folder starts from: PGlite's initdb and every core and plugin migration
// run once at build time (through the compiled server's own createService, so exactly the migrations `npm start`
// runs), in a PGlite data folder next to the compiled server. openDatabase() copies it into a data folder that has no
// database yet; the start's migration pass then finds nothing (or only newer ones) to apply.
// Nothing per install is in it: the master key lives in the data folder (master.key or KEIYAKU_MASTER_KEY), and its
// check row is deleted here, so each install writes its own on first start.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The template's folder name inside the compiled server folder (core/db/index.ts looks for it there). */
export const DB_TEMPLATE_FILE = 'pglite-template';

/** Builds `<serverDir>/pglite-template` with the compiled server found in serverDir. */
export async function buildDbTemplate(serverDir: string): Promise<void> {
  const load = (file: string) => import(pathToFileURL(path.join(serverDir, file)).href);
  const [{ loadConfig }, { createLogger }, { createService }, { openDatabase }] = await Promise.all([
    load('core/config.js'),
    load('core/log.js'),
    load('core/service.js'),
    load('core/db/index.js'),
  ]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-db-template-'));
  const templateDir = path.join(serverDir, DB_TEMPLATE_FILE);
  try {
    // A clean environment: the operator's own settings (a database URL, plugin switches) do not shape the template.
    const config = loadConfig({ KEIYAKU_DATA_DIR: dataDir, LOG_LEVEL: 'silent', KEIYAKU_WORKERS: 'false' });
    const database = await openDatabase({ kind: 'pglite', dataDir: templateDir });
    try {
      const service = await createService(config, { logger: createLogger('silent'), database });
      await service.close();
      // Per install, written by the first start: the row that checks the master key against this database, and the
      // month billing started in (the billing plugin's first start). Only the migrations' own seed rows (the terms)
      // and pg-boss's schema and queues stay.
      await database.knex('master_key_check').delete();
      await database.knex('billing_start').delete();
      await database.pglite.query('VACUUM FULL');
      await database.pglite.query('CHECKPOINT');
    } finally {
      // Closing shuts PostgreSQL down cleanly: the folder is then a database any start can resume.
      await database.close();
    }
    readableByAll(templateDir);
  } catch (error) {
    rmSync(templateDir, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The template holds nothing secret, and the user who starts the server may not be the one who built it: folders
 * 0755, files 0644 (a data folder copied from it is narrowed to its owner by openDatabase).
 */
function readableByAll(folder: string): void {
  chmodSync(folder, 0o755);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) readableByAll(full);
    else chmodSync(full, 0o644);
  }
}
