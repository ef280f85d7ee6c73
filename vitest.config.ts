import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresReachable } from './tests/helpers/databases.ts';
import LongestFirstSequencer from './tests/helpers/longest-first-sequencer.ts';

// Files that also run on the embedded PGlite when PostgreSQL is the main target: what a newcomer meets first.
const PGLITE_SMOKE = [
  'tests/api/sign-in-flow.test.ts',
  'plugins/mail/plugin.test.ts',
  'tests/api/health.test.ts',
  'tests/api/groups.test.ts',
  // A first contract sent (draft, plan, send), in place of tasks.test.ts (145 s on PGlite; PostgreSQL runs it).
  'tests/api/drafts.test.ts',
  'plugins/malware-scan/plugin.test.ts',
  'tests/api/signing.test.ts',
  // AI-OCR's transactions (allowance under an advisory lock) on the embedded database's single connection.
  'plugins/ai-ocr/embedded.test.ts',
];

const shared = {
  // The workbench is built (when stale) before the browser tests load it from the service.
  globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/build-web.ts'],
  // Generous, for a loaded two-core machine: on one, files ran two to four times as long as alone (a browser test
  // waits on chromium, the service and PostgreSQL sharing the cores). Speed is measured by bench/, never by timeouts.
  testTimeout: 90_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
  // Every file starts its own service on its own database and closes it, and passes settings through startApp's
  // env rather than process.env, so files need no fresh module graph each: reusing the worker's one saves the
  // ~2.5 s of importing the service per file (a third of a run of API files, measured on two cores).
  isolate: false,
};

/**
 * Unit tests of the workbench (session guard, clients, i18n) in jsdom. Most share one module graph and jsdom per
 * worker (setting jsdom up per file was five times the tests' own time); the files that replace globals (fetch,
 * storage, timers) keep their own.
 */
const WEB_OWN_GLOBALS = ['web/src/session/session.test.ts', 'web/src/features/batch/api/import-csv.test.ts'];
const webProject = (name: string, include: string[], isolate: boolean, exclude: string[] = []) => ({
  test: { name, include, exclude, environment: 'jsdom', pool: 'threads' as const, isolate },
});
const web = [
  webProject('web', ['web/src/**/*.test.{ts,tsx}'], false, WEB_OWN_GLOBALS),
  webProject('web-isolated', WEB_OWN_GLOBALS, true),
];

export default defineConfig(async () => {
  const withPostgres = process.env.KEIYAKU_TEST_DB !== 'pglite' && (await postgresReachable());
  const include = ['core/**/*.test.ts', 'plugins/**/*.test.ts', 'cli/**/*.test.ts', 'tests/**/*.test.ts'];
  return {
    test: {
      // One worker per core (the default, cores - 1, gives one on a two-core CI machine). A third worker paid where
      // the tests mostly wait (21.2 against 25.4 min on one two-core machine) but not where they compute: on a slower
      // one the CPU stayed busy throughout, three workers took 37.4 min with eight browser tests past their timeouts,
      // two took 34.4 min with none.
      maxWorkers: availableParallelism(),
      reporters: ['default', './tests/helpers/summary-reporter.ts'],
      // The longest files first (browser tests, server processes), whatever their project: see the sequencer.
      sequence: { sequencer: LongestFirstSequencer },
      projects: withPostgres
        ? [
            { test: { ...shared, name: 'postgres', include, env: { KEIYAKU_TEST_DB: 'postgres' } } },
            { test: { ...shared, name: 'pglite-smoke', include: PGLITE_SMOKE, env: { KEIYAKU_TEST_DB: 'pglite' } } },
            ...web,
          ]
        : [{ test: { ...shared, name: 'pglite', include, env: { KEIYAKU_TEST_DB: 'pglite' } } }, ...web],
    },
  };
});
