/*
 * Removes what a crash can leave in the blob store: blobs no row points at (written, then the process died
 * before the row committed) and temporary files of writes cut short. Only what is older than the grace period
 * goes, so a blob whose row is about to commit is never taken.
 *
 * The rule this relies on: a row may point at a blob only after put() returned for it in the same operation
 * (upload, signing, seal image). put() writes a new blob or touches an existing one, so its modification time is
 * the start of its grace period. A blob is removed in three steps: old and unreferenced → renamed aside (atomic;
 * a put() after that writes it anew) → still old after the rename (no put() touched it before) → deleted;
 * otherwise it is renamed back. A quarantined blob found by a later sweep (a crash in between) is put back.
 *
 * Which rows point at blobs: every column named `sha256` or `<something>_sha256` in the application's schemas
 * (document_versions and seal_images today, and whatever a migration adds under such a name). A column of that
 * name that holds some other hash (e-certificate fingerprints) only makes the sweeper keep more.
 *
 * On an S3 bucket there are no temporary objects (a PUT is atomic) and no atomic rename to set a blob aside: the
 * sweeper lists the blobs (ListObjectsV2, with their LastModified), asks the database about the old ones, looks at
 * each unreferenced one again (HEAD: a put() rewrites the object, so a blob whose row is coming is young again) and
 * deletes it. What stays open is the one round trip between that HEAD and the DELETE, against a put() of the same
 * bytes as an orphan past its grace period (an upload repeated after a crash, an hour later by default).
 */
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { exclusively } from '../db/advisory-lock.ts';
import { executeOnConnection } from '../db/index.ts';
import { LocalBlobStore, TEMP_SUFFIX } from './blob-store.ts';
import type { S3BlobStore } from './s3-blob-store.ts';

/** Suffix of a blob set aside for deletion. */
const QUARANTINE_SUFFIX = '.sweep';
const BLOB_NAME = /^[0-9a-f]{64}$/;
const QUARANTINED = /^([0-9a-f]{64})\.[0-9a-f]+\.sweep$/;
const SHARD = /^[0-9a-f]{2}$/;

/** What one sweep did. */
export interface SweepReport {
  blobsDeleted: number;
  tempFilesDeleted: number;
  /** Blobs put back: quarantined by a sweep that crashed, or touched by a put() while being set aside. */
  restored: number;
  blobsKept: number;
}

/** The stores the sweeper knows how to walk. */
export type SweepableStore = LocalBlobStore | S3BlobStore;

/** The columns that may hold blob addresses, as quoted `schema.table` and column names. */
export async function blobReferenceColumns(knex: Knex): Promise<{ table: string; column: string }[]> {
  const { rows } = await executeOnConnection(
    knex,
    `SELECT table_schema, table_name, column_name FROM information_schema.columns
     WHERE (column_name = 'sha256' OR column_name LIKE '%\\_sha256')
       AND data_type IN ('text', 'character varying', 'character')
       AND table_schema = ANY (current_schemas(false))
     ORDER BY table_schema, table_name`,
  );
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return rows.map((row) => ({
    table: `${quote(row.table_schema as string)}.${quote(row.table_name as string)}`,
    column: quote(row.column_name as string),
  }));
}

/** Sweeps the whole store once. */
export async function sweepOrphanBlobs(
  knex: Knex,
  store: SweepableStore,
  options: { graceMs: number },
): Promise<SweepReport> {
  const report: SweepReport = { blobsDeleted: 0, tempFilesDeleted: 0, restored: 0, blobsKept: 0 };
  const columns = await blobReferenceColumns(knex);
  if (columns.length === 0) throw new Error('no blob reference columns found; refusing to sweep');
  const referenced = async (shas: string[]) => {
    if (shas.length === 0) return new Set<string>();
    const sql = columns
      .map(({ table, column }) => `SELECT ${column} AS sha256 FROM ${table} WHERE ${column} = ANY ($1::text[])`)
      .join(' UNION ');
    const { rows } = await executeOnConnection(knex, sql, [shas]);
    return new Set(rows.map((row) => row.sha256 as string));
  };
  if (!(store instanceof LocalBlobStore)) {
    await sweepBucket(store, options.graceMs, referenced, report);
    return report;
  }
  for (const folder of await leafFolders(store.root)) {
    await sweepFolder(folder, options.graceMs, referenced, report);
  }
  return report;
}

async function sweepBucket(
  store: S3BlobStore,
  graceMs: number,
  referenced: (shas: string[]) => Promise<Set<string>>,
  report: SweepReport,
): Promise<void> {
  const old = (lastModified: number | null) => lastModified !== null && Date.now() - lastModified > graceMs;
  // A page at a time (1,000 keys): deleting keys already listed does not disturb the listing's continuation.
  for await (const page of store.list()) {
    const candidates = page.filter((blob) => old(blob.lastModified)).map((blob) => blob.sha256);
    const kept = await referenced(candidates);
    report.blobsKept += kept.size;
    for (const sha256 of candidates) {
      if (kept.has(sha256)) continue;
      const lastModified = await store.lastModified(sha256);
      if (lastModified === null) continue; // another sweeper took it
      if (!old(lastModified)) {
        report.blobsKept++; // a put() wrote it again since the listing: its row is coming
        continue;
      }
      await store.delete(sha256);
      report.blobsDeleted++;
    }
  }
}

async function subfolders(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && SHARD.test(e.name)).map((e) => path.join(folder, e.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function leafFolders(root: string): Promise<string[]> {
  const leaves: string[] = [];
  for (const first of await subfolders(root)) leaves.push(...(await subfolders(first)));
  return leaves;
}

/** Modification time in ms, or null when the file is gone. */
async function mtimeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function sweepFolder(
  folder: string,
  graceMs: number,
  referenced: (shas: string[]) => Promise<Set<string>>,
  report: SweepReport,
): Promise<void> {
  const old = (mtime: number | null) => mtime !== null && Date.now() - mtime > graceMs;
  const candidates: string[] = [];
  for (const name of await readdir(folder)) {
    const file = path.join(folder, name);
    const quarantined = QUARANTINED.exec(name);
    if (quarantined) {
      await putBack(file, path.join(folder, quarantined[1]!));
      report.restored++;
    } else if (name.endsWith(TEMP_SUFFIX)) {
      if (old(await mtimeOf(file))) {
        await rm(file, { force: true });
        report.tempFilesDeleted++;
      }
    } else if (BLOB_NAME.test(name)) {
      if (old(await mtimeOf(file))) candidates.push(name);
    }
  }
  const kept = await referenced(candidates);
  report.blobsKept += kept.size;
  for (const sha256 of candidates) {
    if (kept.has(sha256)) continue;
    const file = path.join(folder, sha256);
    const aside = `${file}.${randomBytes(4).toString('hex')}${QUARANTINE_SUFFIX}`;
    try {
      await rename(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another sweeper took it
      throw error;
    }
    const mtime = await mtimeOf(aside);
    if (mtime === null) continue; // another sweeper found it aside and put it back
    if (old(mtime)) {
      await rm(aside, { force: true });
      report.blobsDeleted++;
    } else {
      await putBack(aside, file); // a put() touched it between our look and the rename: its row is coming
      report.restored++;
    }
  }
}

/** Renames a quarantined blob back; a blob written anew meanwhile has the same bytes, so either copy will do. */
async function putBack(aside: string, file: string): Promise<void> {
  try {
    await rename(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another sweeper got there first
  }
}

/**
 * Sweeps now and then every `intervalMs`, one sweep at a time; the returned function stops the timer and waits for
 * a sweep in progress (so it never runs against a closed database).
 */
export function startOrphanSweeper(
  deps: { knex: Knex; files: SweepableStore; logger: Logger },
  options: { intervalMs: number; graceMs: number },
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    // One worker process sweeps at a time: the others skip this tick (the store and the table are shared).
    running = exclusively(deps.knex, 'orphan-blob-sweep', () =>
      sweepOrphanBlobs(deps.knex, deps.files, { graceMs: options.graceMs }),
    )
      .then((outcome) => {
        if (!outcome.ran) return;
        const report = outcome.result;
        if (report.blobsDeleted + report.tempFilesDeleted + report.restored > 0) {
          deps.logger.info(report, 'orphan blobs swept');
        }
      })
      .catch((error) => deps.logger.error({ err: error }, 'orphan blob sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, options.intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
