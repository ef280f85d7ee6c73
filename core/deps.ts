import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import type { FileStore } from './files/blob-store.ts';
import type { JobQueue } from './jobs/index.ts';
import type { Mailer } from './mail/mailer.ts';
import type { PdfWorkPool } from './pdf-work/pool.ts';
import type { SigningEngine } from './signing/engine.ts';
import type { SignatureTypeRegistry } from './signing/registry.ts';
import type { OperationLog } from './modules/logs/operation-log.ts';
import type { PlanFeature } from './access/plans.ts';
import type { GuardEvents, GuardName, HookEvents, HookName } from './plugins/index.ts';

/** What core services are built from; created once in core/service.ts. */
export interface CoreDeps {
  config: Config;
  database: Database;
  knex: Knex;
  clock: Clock;
  jobs: JobQueue;
  mailer: Mailer;
  /** Document files: content-addressed blobs (core/files/blob-store.ts). */
  files: FileStore;
  oplog: OperationLog;
  logger: Logger;
  /**
   * The worker pool every parse of a PDF we did not make runs in, within a budget (core/pdf-work): upload
   * inspection, the built-in malware scan, page geometry, the PDF side of signing, verification.
   */
  pdfWork: PdfWorkPool;
  /** PAdES signing: local PKI, TSA, revocation data, trust store, operator key (core/signing/engine.ts). */
  signing: SigningEngine;
  /** Plan features whose plugin is switched off (KEIYAKU_PLUGINS_DISABLED): /me does not offer them. */
  featuresOff: ReadonlySet<PlanFeature>;
  /** Signature types registered by plugins (filled while the plugins load). */
  signatureTypes: SignatureTypeRegistry;
  /** Tells plugins what happened (call after the transaction committed), and asks their guards before going on. */
  events: {
    emit<E extends HookName>(event: E, payload: HookEvents[E]): Promise<void>;
    guard<E extends GuardName>(event: E, payload: GuardEvents[E]): Promise<void>;
  };
}
