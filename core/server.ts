import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { createService } from './service.ts';

// Entry point of `npm start`: configuration, migrations, HTTP and jobs; SIGTERM/SIGINT shut down gracefully.
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(78);
  }
  throw error;
}
const logger = createLogger(config.logLevel);
let service: Awaited<ReturnType<typeof createService>>;
try {
  service = await createService(config, { logger });
} catch (error) {
  // What start-up finds wrong with the setup (a master key that does not fit the database, a data folder it cannot
  // make private) exits like a configuration error, with the message alone.
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(78);
  }
  throw error;
}
await service.listen();
logger.info(
  {
    url: `http://localhost:${config.port}`,
    database: config.database.kind === 'postgres' ? 'postgres' : `pglite at ${config.database.dataDir}`,
    role: config.role,
    mail: config.smtpUrl ? 'smtp' : 'local outbox (npm run cli -- mail outbox)',
    blobs:
      config.blobStore.kind === 's3'
        ? `s3://${config.blobStore.bucket}/${config.blobStore.prefix}blobs/`
        : `${config.dataDir}/blobs`,
    plugins: service.host.names(),
  },
  'Keiyaku is listening',
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests and jobs');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 20 s; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    service
      .close()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
