import type { AddressInfo } from 'node:net';
import { openDatabase } from '../../core/db/index.ts';
import { createLogger } from '../../core/log.ts';
import { createService } from '../../core/service.ts';
import type { TestApp } from './app.ts';
import { TestClient } from './client.ts';

/**
 * A second API process on a running test app's database, as a deployment with two instances behind a load balancer
 * has: on PostgreSQL with a connection pool of its own; PGlite is one in-process database, so there the handle is
 * shared. Same configuration and clock as the first; close it before the first.
 */
export async function secondInstance(first: TestApp): Promise<{ api: TestClient; close(): Promise<void> }> {
  const config = { ...first.service.deps.config, port: 0 };
  const own = config.database.kind === 'postgres' ? await openDatabase(config.database) : null;
  const service = await createService(config, {
    clock: first.clock,
    database: own ?? first.service.database,
    logger: createLogger(config.logLevel),
    jobPollingSeconds: 0.5,
  });
  const server = await service.listen();
  return {
    api: new TestClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    async close() {
      await service.close();
      await own?.close();
    },
  };
}
