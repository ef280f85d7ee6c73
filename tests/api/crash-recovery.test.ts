/*
 * kill -9 of the real server process on PostgreSQL, then a restart on the same database and data folder (what is in
 * flight at the kill and what is checked after the restart: tests/helpers/crash-recovery.ts). The embedded PGlite's
 * run is crash-recovery-embedded.test.ts, so that the two run side by side.
 */
import { describe, inject, it } from 'vitest';
import { killAndRestart, seedPostgres, useCleanups } from '../helpers/crash-recovery.ts';

const cleanups = useCleanups();

describe.runIf(inject('dbKind') === 'postgres')('a server killed with -9 on PostgreSQL', () => {
  it('resumes its jobs within a minute of the restart and leaves nothing half-written', async () => {
    console.info(`crash test (PostgreSQL): ${await killAndRestart(cleanups, await seedPostgres(cleanups))}`);
  }, 300_000);
});
