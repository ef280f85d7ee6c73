import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { loadConfig } from '../../core/config.ts';
import { openDatabase } from '../../core/db/index.ts';
import { createLogger } from '../../core/log.ts';
import type { Plugin } from '../../core/plugins/index.ts';
import { type Service, createService } from '../../core/service.ts';
import { TestClient } from './client.ts';
import { isolatedDatabase } from './databases.ts';

export interface TestApp {
  url: string;
  api: TestClient;
  service: Service;
  clock: ManualClock;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Starts the real service on its own copy of the migrated database (PostgreSQL or PGlite, per the project), on a
 * free port, with a clock the test can advance. Requests may claim a client IP with X-Forwarded-For.
 */
export async function startApp(
  options: {
    env?: Record<string, string>;
    plugins?: Plugin<never>[];
    /** Run on this app's database (call its `service.close()` first); that app keeps owning and dropping it. */
    databaseOf?: TestApp;
  } = {},
): Promise<TestApp> {
  const shared = options.databaseOf;
  const isolated = shared ? null : await isolatedDatabase(inject('dbKind'), inject('dbTemplate'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-test-'));
  const config = loadConfig({
    KEIYAKU_DATA_DIR: dataDir,
    // The database's secrets (and its key check value) are sealed under its first app's key: a later app keeps it.
    KEIYAKU_MASTER_KEY: (shared?.service.deps.config.masterKey ?? randomBytes(32)).toString('base64'),
    PORT: '0',
    HOST: '127.0.0.1',
    TRUSTED_PROXIES: '127.0.0.1,::1', // the tests' own requests may claim a client address with X-Forwarded-For
    LOG_LEVEL: process.env.KEIYAKU_TEST_LOG ?? 'silent',
    KEIYAKU_PLUGIN_MAIL_RETRY_DELAY_SECONDS: '1',
    // Test files sign up and sign in from one address far more often than people do; the rate-limit tests run with
    // KEIYAKU_RATE_LIMIT_SCALE=1, the production budgets.
    KEIYAKU_RATE_LIMIT_SCALE: '1000',
    // Argon2id with 1 MiB instead of 19 (the hashes are the tests' own): a tenth of the API files' CPU went to it.
    KEIYAKU_PASSWORD_HASH_MEMORY_KIB: '1024',
    // The tests' fetch (undici) drops an idle connection after 4 s; a server keeping it 5 s (the default) may close
    // it just as the test, in the same busy process, sends the next request on it: a read ECONNRESET on a large
    // upload under load. Here the client always lets go first (http-hardening.test.ts tests the default's timeout).
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
    ...options.env,
  });
  config.database = shared ? shared.service.deps.config.database : isolated!.config;
  const database = shared ? shared.service.database : await openDatabase(isolated!.config);
  const clock = new ManualClock();
  const service = await createService(config, {
    clock,
    database,
    logger: createLogger(config.logLevel),
    plugins: options.plugins,
    jobPollingSeconds: 0.5,
  });
  const server = await service.listen();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    api: new TestClient(url),
    service,
    clock,
    dataDir,
    async close() {
      await service.close();
      if (isolated) {
        await database.close();
        await isolated.drop();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
