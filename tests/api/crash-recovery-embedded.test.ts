/*
 * kill -9 of the real server process on the embedded PGlite (the default of `npm start` without DATABASE_URL), then
 * a restart on the same data folder (what is in flight at the kill and what is checked after the restart:
 * tests/helpers/crash-recovery.ts). The PostgreSQL run is crash-recovery.test.ts.
 */
import { describe, it } from 'vitest';
import { killAndRestart, seedEmbedded, useCleanups } from '../helpers/crash-recovery.ts';

const cleanups = useCleanups();

describe('a server killed with -9 on the embedded PGlite', () => {
  it('resumes its jobs within a minute of the restart and leaves nothing half-written', async () => {
    console.info(`crash test (PGlite): ${await killAndRestart(cleanups, await seedEmbedded(cleanups))}`);
  }, 300_000);
});
