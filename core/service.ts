import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { buildApp, InFlightRequests } from './app.ts';
import { setPasswordHashMemory } from './auth/passwords.ts';
import { AccountRecovery } from './auth/recovery.ts';
import { authRoutes } from './auth/routes.ts';
import { GuestSessions } from './auth/guest-sessions.ts';
import { PrincipalCache } from './auth/principal-cache.ts';
import { ServiceMetrics } from './http/metrics.ts';
import { Sessions } from './auth/sessions.ts';
import { SignIn } from './auth/sign-in.ts';
import { TokenSigner } from './auth/tokens.ts';
import { type Clock, systemClock } from './clock.ts';
import { type Config, ConfigError } from './config.ts';
import { loadContract } from './contract/document.ts';
import { ApiRouter } from './contract/router.ts';
import { IdempotencyStore } from './contract/idempotency.ts';
import { perIp, RateLimiter } from './access/rate-limits.ts';
import { permissionsVersion } from './access/permissions-version.ts';
import { type Database, openDatabase } from './db/index.ts';
import { coreMigrations, migrateFolder, pendingMigrations } from './db/migrate.ts';
import type { CoreDeps } from './deps.ts';
import { openBlobStore, s3Failure } from './files/open-blob-store.ts';
import { type SweepableStore, startOrphanSweeper } from './files/sweep-orphans.ts';
import { createHttpServer } from './http/http-server.ts';
import { ensurePrivateFolder } from './files/private-folder.ts';
import { verifyMasterKey } from './crypto/key-check.ts';
import { DOCUMENT_SCAN_JOB } from './files/scan.ts';
import { JobQueue } from './jobs/index.ts';
import { createLogger } from './log.ts';
import { createSigningEngine, sealWithOperatorKey } from './signing/engine.ts';
import { PdfWorkPool } from './pdf-work/pool.ts';
import { SignatureTypeRegistry } from './signing/registry.ts';
import { MAIL_SEND_JOB, Mailer } from './mail/mailer.ts';
import { OutgoingMessages } from './mail/outgoing.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { logRoutes } from './modules/logs/routes.ts';
import { signRecordRoutes } from './modules/sign-records/routes.ts';
import { batchRoutes } from './modules/batch/routes.ts';
import { OperationLog } from './modules/logs/operation-log.ts';
import { ipRestrictionRoutes } from './modules/organizations/ip-restrictions.ts';
import { planCatalogRoutes } from './modules/plans/catalog-routes.ts';
import { operatorRoutes } from './modules/plans/operator-routes.ts';
import { planChangeRequestRoutes } from './modules/plans/requests.ts';
import { organizationRoutes } from './modules/organizations/routes.ts';
import { userAdminRoutes } from './modules/users/routes.ts';
import { mailTemplateRoutes } from './modules/mail-templates/routes.ts';
import { usageRoutes } from './modules/usage/routes.ts';
import { signUpRoutes } from './modules/signup/routes.ts';
import { termsRoutes } from './modules/terms/routes.ts';
import { accountRoutes } from './modules/users/account.ts';
import { meRoutes } from './modules/users/me.ts';
import { propertyRoutes } from './modules/properties/routes.ts';
import { workspaceRoutes } from './modules/workspaces/routes.ts';
import { workspaceInvitationRoutes } from './modules/workspaces/invitations/routes.ts';
import { businessFlowRoutes } from './modules/business-flows/routes.ts';
import { documentRoutes } from './modules/documents/routes.ts';
import { templateRoutes } from './modules/templates/routes.ts';
import { taskRoutes } from './modules/tasks/routes.ts';
import { inboxRoutes } from './modules/inbox/routes.ts';
import { startRenewalTimer } from './modules/signing/long-term.ts';
import { signingRoutes } from './modules/signing/routes.ts';
import { oneTimeUserRoutes } from './modules/one-time-users/routes.ts';
import { oneTimeWorkRoutes } from './modules/one-time-users/work/routes.ts';
import { SMS_SEND_JOB } from './signing/sms.ts';
import { pkiProtocolRoutes } from './signing/http.ts';
import { type Plugin, PluginHost } from './plugins/index.ts';
import { mailPlugin } from '../plugins/mail/index.ts';
import { malwareScanPlugin } from '../plugins/malware-scan/index.ts';
import { smsPlugin } from '../plugins/sms/index.ts';
import { completedDocumentFiles } from './modules/documents/completion-certificate.ts';
import { writeDocumentProperties } from './modules/documents/update.ts';
import { serviceSignaturesPlugin } from '../plugins/service-signatures/index.ts';
import { eCertificateSignaturesPlugin } from '../plugins/e-certificate-signatures/index.ts';
import { ssoPlugin } from '../plugins/sso/index.ts';
import { boxPlugin } from '../plugins/box/index.ts';
import { aiOcrPlugin } from '../plugins/ai-ocr/index.ts';
import { billingPlugin } from '../plugins/billing/index.ts';
import { webhooksPlugin } from '../plugins/webhooks/index.ts';
import { apiKeyAuthenticator } from './modules/api-keys/authenticate.ts';
import { apiKeyUseRecorder } from './modules/api-keys/record-use.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { looksLikeApiKey } from './modules/api-keys/secret.ts';

/** The plugins this build ships; KEIYAKU_PLUGINS_DISABLED turns any of them off. */
export const BUILT_IN_PLUGINS: Plugin<never>[] = [
  mailPlugin as Plugin<never>,
  malwareScanPlugin as Plugin<never>,
  smsPlugin as Plugin<never>,
  serviceSignaturesPlugin as Plugin<never>,
  eCertificateSignaturesPlugin as Plugin<never>,
  ssoPlugin as Plugin<never>,
  boxPlugin as Plugin<never>,
  aiOcrPlugin as Plugin<never>,
  billingPlugin as Plugin<never>,
  webhooksPlugin as Plugin<never>,
];

export const CORE_MIGRATIONS_TABLE = 'knex_migrations';

/** A running (or ready to run) Keiyaku service: the Koa app plus everything it owns. */
export interface Service {
  app: Koa;
  deps: CoreDeps;
  host: PluginHost;
  database: Database;
  ready(): Promise<Record<string, string>>;
  listen(): Promise<Server>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  plugins?: Plugin<never>[];
  /** An already open database (tests hand in their isolated one). */
  database?: Database;
  jobPollingSeconds?: number;
}

/** Opens the database, migrates core and plugins, wires every route and job, and starts the workers. */
export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  setPasswordHashMemory(config.passwordHashMemoryKiB);
  const files = await openBlobStore(config);
  privateDataFolders(config, 'root' in files ? files.root : null);
  const database = options.database ?? (await openDatabase(config.database));
  const knex = database.knex;
  try {
    await migrateFolder(knex, coreMigrations, CORE_MIGRATIONS_TABLE);
    // A wrong master key stops the start here, instead of failing every signature later.
    await verifyMasterKey(knex, config.masterKey);
  } catch (error) {
    if (!options.database) await database.close();
    if ('close' in files) files.close();
    throw error;
  }

  const jobs = new JobQueue(database, logger, {
    pollingIntervalSeconds: options.jobPollingSeconds,
    runWorkers: config.runWorkers,
  });
  const oplog = new OperationLog(clock);
  const mailer = new Mailer(jobs, new OutgoingMessages(knex, config.masterKey, clock), oplog);
  // One pool for every parse of a PDF we did not make: uploads, the scan job, placements, signing, verification.
  const pdfWork = new PdfWorkPool(config.pdfWork);
  const plugins = options.plugins ?? BUILT_IN_PLUGINS;
  const featuresOff = new Set(
    plugins.flatMap((p) => (p.feature && config.disabledPlugins.includes(p.name) ? [p.feature] : [])),
  );
  const deps: CoreDeps = {
    config,
    database,
    knex,
    clock,
    jobs,
    mailer,
    files,
    oplog,
    logger,
    pdfWork,
    signing: createSigningEngine(config, knex, clock, pdfWork),
    signatureTypes: new SignatureTypeRegistry(),
    featuresOff,
    events: {
      emit: (event, payload) => host.emit(event, payload),
      guard: (event, payload) => host.guard(event, payload),
    },
  };
  // PostgreSQL only: the embedded PGlite is one process and answers in-process, and has no listener connection.
  const principalCache = database.kind === 'postgres' && database.url ? new PrincipalCache(database.url, logger) : null;
  await principalCache?.start(knex);
  const sessions = new Sessions(
    knex,
    new TokenSigner(config.masterKey, config.accessTokenTtlSeconds),
    clock,
    oplog,
    principalCache,
  );
  const signIn = new SignIn(deps, sessions);
  const host = new PluginHost(plugins, {
    ...deps,
    signIn,
    completedFiles: (documentId) => completedDocumentFiles(deps, documentId),
    writeDocumentProperties: (trx, input) => writeDocumentProperties(deps, trx, input),
    sealPdf: (pdf, input) => sealWithOperatorKey(deps.signing, pdfWork, pdf, input),
  });
  await host.load();

  const contract = loadContract();
  const metrics = new ServiceMetrics({ knex, jobDepth: true, pdfTasksPending: () => pdfWork.pending });
  pdfWork.onSigned = (level, seconds) => metrics.signed(level, seconds);
  jobs.onOutcome = (queue, outcome) => metrics.job(queue, outcome);
  const rateLimiter = new RateLimiter(knex, config.rateLimitScale);
  rateLimiter.onRefused = (limit) => metrics.rateLimited(limit);
  const guestSessions = new GuestSessions(knex, config.masterKey, clock);
  const apiKeys = { recognises: looksLikeApiKey, resolve: apiKeyAuthenticator(knex, clock) };
  const api = new ApiRouter(
    contract,
    sessions.authenticator(apiKeys),
    rateLimiter,
    guestSessions.authenticator(),
    (p) => permissionsVersion(knex, p),
  );
  api.useIdempotencyKeys(new IdempotencyStore(knex, clock));
  const ready = async () => readiness(database, host, files);
  healthRoutes(api, ready);
  api.operation('getMetrics', { rateLimit: [perIp('metricsTokenPerIp')] }, async ({ header }) =>
    metrics.answer(config.metricsToken, header('authorization')),
  );
  api.recordApiKeyUses(apiKeyUseRecorder(knex, clock, oplog));
  apiKeyRoutes(api, deps);
  authRoutes(api, signIn, sessions, new AccountRecovery(deps, sessions));
  signUpRoutes(api, deps);
  termsRoutes(api, deps);
  meRoutes(api, deps, sessions);
  accountRoutes(api, deps, sessions);
  ipRestrictionRoutes(api, deps);
  logRoutes(api, deps);
  signRecordRoutes(api, deps);
  organizationRoutes(api, deps);
  planCatalogRoutes(api);
  planChangeRequestRoutes(api, deps);
  operatorRoutes(api, deps);
  userAdminRoutes(api, deps);
  batchRoutes(api, deps);
  mailTemplateRoutes(api, deps);
  usageRoutes(api, deps);
  propertyRoutes(api, deps);
  workspaceRoutes(api, deps);
  workspaceInvitationRoutes(api, deps);
  businessFlowRoutes(api, deps);
  documentRoutes(api, deps);
  templateRoutes(api, deps);
  taskRoutes(api, deps);
  inboxRoutes(api, deps);
  signingRoutes(api, deps);
  oneTimeUserRoutes(api, deps, guestSessions);
  oneTimeWorkRoutes(api, deps);
  host.register(api);

  const inFlight = new InFlightRequests();
  const app = buildApp({
    config,
    logger,
    contract,
    api: api.routes(host.unboundOperations(api)),
    inFlight,
    protocols: pkiProtocolRoutes(deps.signing, clock),
    metrics: metrics.middleware(),
  });
  await host.start();
  // Core queues exist even while the plugin that works them is off, so what core sends waits instead of failing.
  await jobs.start([MAIL_SEND_JOB, DOCUMENT_SCAN_JOB, SMS_SEND_JOB]);
  const stopRenewals = config.runWorkers ? startRenewalTimer(deps) : () => {};
  // Blobs a crash left without a row, and half-written temporary files, go after their grace period.
  const stopSweeper = config.runWorkers
    ? startOrphanSweeper(
        { knex, files, logger },
        { intervalMs: config.blobSweep.intervalSeconds * 1000, graceMs: config.blobSweep.graceSeconds * 1000 },
      )
    : async () => {};

  let server: Server | null = null;
  let closing: Promise<void> | null = null;
  return {
    app,
    deps,
    host,
    database,
    ready,
    listen: () =>
      new Promise((resolve, reject) => {
        const s = createHttpServer(app.callback(), config.http, logger);
        s.listen(config.port, config.host, () => resolve(s));
        s.once('error', reject);
        server = s;
      }),
    close: () => {
      closing ??= (async () => {
        if (server) {
          const s = server as Server;
          const closed = new Promise<void>((resolve) => s.close(() => resolve()));
          // close() ends the connections idle at that moment; one whose response finishes later would stay open
          // until its keep-alive timeout, so each is ended as soon as it is idle. A response still being written
          // (a download) completes; a client that reads nothing holds on no longer than the grace period.
          const sweep = setInterval(() => s.closeIdleConnections?.(), 50);
          sweep.unref();
          const grace = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
          await Promise.race([closed, grace]);
          clearInterval(sweep);
          s.closeAllConnections?.();
        }
        // A client that hung up leaves its handler running; let it finish before the database goes away.
        await inFlight.drained(10_000);
        stopRenewals();
        await stopSweeper();
        rateLimiter.stop();
        await jobs.stop();
        await host.stop();
        await pdfWork.close();
        await principalCache?.close();
        if ('close' in files) files.close();
        if (!options.database) await database.close();
      })();
      return closing;
    },
  };
}

/**
 * The data folder holds the database, document files, the mail outbox and the master key: the owner's only
 * (0700), also when an earlier version created it with looser permissions.
 */
function privateDataFolders(config: Config, blobRoot: string | null): void {
  for (const folder of blobRoot ? [config.dataDir, blobRoot] : [config.dataDir]) {
    try {
      ensurePrivateFolder(folder);
    } catch (error) {
      throw new ConfigError(`cannot make ${folder} readable by its owner only (0700): ${(error as Error).message}`);
    }
  }
}

async function readiness(database: Database, host: PluginHost, files: SweepableStore): Promise<Record<string, string>> {
  const checks: Record<string, string> = {};
  try {
    await database.knex.raw('SELECT 1');
    checks.database = 'ok';
    const pending = await pendingMigrations(database.knex, coreMigrations, CORE_MIGRATIONS_TABLE);
    checks.migrations = pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`;
  } catch (error) {
    checks.database = `unavailable: ${(error as Error).message}`;
  }
  // Blobs on S3: an instance that cannot reach the bucket cannot serve documents (the local folder is the process's).
  if ('check' in files) {
    checks.blobStore = await files.check().then(
      () => 'ok',
      (error: unknown) => `unavailable: ${s3Failure(error)}`,
    );
  }
  for (const name of host.names()) checks[`plugin:${name}`] = 'ok';
  return checks;
}
