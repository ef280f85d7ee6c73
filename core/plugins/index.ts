import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { PlanFeature } from '../access/plans.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { CoreDeps } from '../deps.ts';
import type { FileStore } from '../files/blob-store.ts';
import { recordScanVerdict, type ScanVerdict } from '../files/scan.ts';
import { provisionUser } from '../modules/users/service.ts';
import type { SignIn } from '../auth/sign-in.ts';
import type { TokenPair } from '../auth/sessions.ts';
import { createSecrets, type Secrets } from '../crypto/secrets.ts';
import type { RequestContext } from '../http/context.ts';
import type { CompletedDocumentFiles } from '../modules/documents/completion-certificate.ts';
import type { ApiRouter, Handler, RouteOptions } from '../contract/router.ts';
import type { operations } from '../contract/api.gen.ts';
import { migrateFolder } from '../db/migrate.ts';
import type { Plan, Principal } from '../http/context.ts';
import { documentAccess } from '../modules/workspaces/access.ts';
import type { JobHandler, JobQueue, QueuePolicy } from '../jobs/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { SignatureType } from '../signing/signature-types.ts';
import type { OperationLog } from '../modules/logs/operation-log.ts';
import { type PaidOption, planHasFeature } from '../access/plans.ts';
import { recordUsage, tokyoMonth, usageOfMonth, type UsageMetric } from '../modules/usage/counters.ts';
import { PLAN_CATALOG } from '../access/plans.ts';
import type { PlanCatalog } from '../access/plan-catalog.ts';
import type { IntegrationEvent } from '../modules/events/types.ts';

// What the malware-scan plugin needs from core (plugins import nothing else of core than this file and, for
// signature types, core/signing/index.ts).
export { DOCUMENT_SCAN_JOB, type DocumentScanJob, type ScanVerdict } from '../files/scan.ts';
/** A document's newest version, and the refusal of one not known clean (for plugins that read content). */
export { assertScanAllowsUse, latestVersion } from '../files/scan.ts';
export { japaneseFont } from '../pdf-work/certificate-pdf.ts';
/** Custom property type codes (input types, number units), as the contract and the web use them. */
export { INPUT_TYPES, NUMBER_UNITS } from '../contract/property-values.ts';
export { SMS_SEND_JOB, type SmsMessage } from '../signing/sms.ts';
export { perIp, perUser } from '../access/rate-limits.ts';
/** Refuses (403 PLAN_FEATURE_UNAVAILABLE) an organization whose plan lacks a feature: for public plugin routes. */
export { assertPlanFeature } from '../access/plans.ts';
/** The body and refresh cookie of a sign-in answer, as POST /auth gives them (RefreshTokenDelivery). */
export { authResult } from '../auth/routes.ts';
export { AppError } from '../http/errors.ts';
/** Checks a Japanese corporate number's 13 digits and check digit (the digits of a qualified-invoice T number). */
export { isValidCorporateNumber } from '../modules/organizations/corporate-number.ts';
/** The one CSV writer (UTF-8 with BOM, CRLF, RFC 4180 quoting, text guarded against formula injection). */
export { CSV_BOM, csvRecord, type CsvValue } from '../contract/csv.ts';
/** JST usage months: the month of an instant, and month arithmetic. */
export { addMonths, tokyoMonth } from '../modules/usage/counters.ts';
export type { TokenPair } from '../auth/sessions.ts';
export type { Plan, Principal, RequestContext } from '../http/context.ts';
export type { CompletedDocumentFiles } from '../modules/documents/completion-certificate.ts';
/** The integration events core tells (hook 'integration.event') and their types. */
export { INTEGRATION_EVENT_TYPES, type IntegrationEvent, type IntegrationEventType } from '../modules/events/types.ts';

/** Events plugins can listen to, with what each carries. */
export interface HookEvents {
  /** An organization and its owner were created (after commit). */
  'organization.signed_up': { organizationId: string; ownerUserId: string; plan: Plan };
  /** A user signed in (after commit). */
  'auth.signed_in': { organizationId: string; userId: string; plan: Plan };
  /**
   * A document completed (every task done): told at least once, by a job, after the completion committed; a hook
   * may hear of the same completion twice and should be idempotent.
   */
  'document.completed': {
    organizationId: string;
    documentId: string;
    businessFlowId: string;
    workspaceId: string;
    plan: Plan;
    options: readonly PaidOption[];
  };
  /**
   * A document version was found clean by the malware scan (after commit; told at least once, by a job): the
   * first moment its content may be read. A hook may hear of the same version twice and should be idempotent.
   */
  /**
   * A change integrators may hear of (core/modules/events: a task assigned or executed, a document remanded,
   * cancelled or completed, ...), once per organization that may see it: told at least once, by a job, after the
   * change committed; `id` names the event (the same on a second telling), so a hook should be idempotent.
   */
  'integration.event': IntegrationEvent & { organizationId: string; plan: Plan; options: readonly PaidOption[] };
  'document.scanned': {
    organizationId: string;
    documentId: string;
    documentVersionId: string;
    version: number;
    documentTemplateId: string | null;
    plan: Plan;
    options: readonly PaidOption[];
  };
}
export type HookName = keyof HookEvents;

/**
 * Checks plugins make before core goes on; a guard refuses by throwing an AppError, which the caller answers with.
 * Only the plugins whose feature the organization's plan has are asked.
 */
export interface GuardEvents {
  /** A password proved right (the account's own states not yet told): e.g. single sign-on only for this user. */
  'auth.password_sign_in': {
    organizationId: string;
    organizationCode: string;
    userId: string;
    /** An organization administrator or the owner. */
    isAdmin: boolean;
    plan: Plan;
    options: readonly PaidOption[];
  };
}
export type GuardName = keyof GuardEvents;
export type GuardHandler<E extends GuardName, C> = (event: GuardEvents[E], ctx: PluginContext<C>) => Promise<void>;

/** A hook handler: runs after the event's transaction committed; a failure is logged, never undoes the event. */
export type HookHandler<E extends HookName, C> = (event: HookEvents[E], ctx: PluginContext<C>) => Promise<void>;

/** Everything a plugin may reach: the world comes only through here. */
export interface PluginContext<C = unknown> {
  name: string;
  config: C;
  db: Knex;
  clock: Clock;
  jobs: Pick<JobQueue, 'send' | 'counts'>;
  mail: Mailer;
  log: Logger;
  oplog: OperationLog;
  /** The service's public origin, for links in what the plugin sends. */
  publicUrl: string;
  /**
   * Whether this process runs the job workers (KEIYAKU_ROLE all or worker): periodic work of a plugin's own (a timer
   * in `start`) belongs in such processes only, so API processes scaled out to N do not each repeat it.
   */
  runsWorkers: boolean;
  /** Stored document files (read-only): content-addressed blobs. */
  files: Pick<FileStore, 'read' | 'exists'>;
  /**
   * Seals and opens this plugin's secrets at rest (tokens, client secrets) under a key derived from the master key
   * for this plugin alone; pass the row's id as `context` so an envelope never opens on another row.
   */
  secrets: Secrets;
  /** The usage counters of the usage details screen (JST calendar months). */
  usage: {
    /** Adds to this month's counter in the caller's transaction (count it with the change it counts). */
    record(trx: Knex.Transaction, organizationId: string, metric: UsageMetric, amount: number): Promise<void>;
    /**
     * This month's count (JST), and the month; inside a transaction pass it as `db` (the embedded database has one
     * connection, which the transaction holds).
     */
    current(organizationId: string, metric: UsageMetric, db?: Knex): Promise<{ month: string; count: number }>;
    /**
     * Every counter of one JST month (`YYYY-MM`): the metrics of USAGE_METRICS and the signatures per type
     * (`signatures.<type code>`); metrics with nothing counted are absent.
     */
    month(organizationId: string, month: string, db?: Knex): Promise<Record<string, number>>;
  };
  /** Plans and paid options as data (config/plans.json or KEIYAKU_PLANS_FILE): features, limits and prices. */
  plans: PlanCatalog;
  /**
   * Signs a PDF the plugin made with the business-operator key (PAdES B-T with the service's TSA), as the completion
   * certificate is signed, so any verifier shows it unchanged since the service issued it.
   */
  sealPdf(pdf: Uint8Array, input: { reason: string; claimedTime: Date }): Promise<Uint8Array>;
  /** Sign-in for plugins that prove who a user is some other way (single sign-on). */
  auth: {
    /**
     * Starts a session for a user the plugin identified: account state (ACCOUNT_DEACTIVATED,
     * ACCOUNT_LOCKED_BY_ADMIN), the IP restriction (IP_RESTRICTED) and the terms (TERMS_NOT_AGREED with the
     * consent owed) are checked as for a password; the operation log records `auth.signed_in` with `method`.
     */
    signInWithIdentity(
      input: { userId: string; method: string; acceptTermId?: string; details?: Record<string, unknown> },
      req: RequestContext,
    ): Promise<TokenPair>;
  };
  /** Users a plugin creates. */
  users: {
    /**
     * Creates a user an identity provider vouched for (single sign-on's just-in-time provisioning), in the caller's
     * transaction: a member of `groupId` (of the same organization, else 422 REFERENCE_NOT_FOUND), with no usable
     * password and no invitation mail; LOGIN_ID_TAKEN when the login ID is in use. The operation log records
     * `user.created` with `via`.
     */
    provision(
      trx: Knex.Transaction,
      input: { organizationId: string; loginId: string; name: string; email: string; groupId: string; via: string },
      req: RequestContext | null,
    ): Promise<{ id: string }>;
  };
  /** Document hooks: record a malware-scan verdict on a document version in the caller's transaction. */
  documents: {
    /**
     * A completed document's final signed PDF and completion certificate, with its workspace and flow: NOT_FOUND,
     * DOCUMENT_NOT_COMPLETED, or the scan's refusal while unsafe.
     */
    completedFiles(documentId: string): Promise<CompletedDocumentFiles>;
    /**
     * Checks that a signed-in user may read a document, as core's document operations do (NOT_FOUND otherwise),
     * and tells its organization, flow and status.
     */
    assertReadable(
      documentId: string,
      principal: Principal,
    ): Promise<{
      organizationId: string;
      businessFlowId: string;
      workspaceId: string;
      status: string;
      name: string;
      /** The caller belongs to the workspace owner organization (else a partner). */
      isOwnerOrganization: boolean;
      /** The caller may edit the workspace's flows and documents. */
      canEdit: boolean;
    }>;
    /**
     * Writes document property values as updateDocument does, in the caller's transaction: with `principal`
     * under that person's rights, with null by a rule of the owner organization; the operation log records
     * `document.updated` with `via`. Problems are 422 at `pointer(index)`.
     */
    writeProperties(
      trx: Knex.Transaction,
      input: {
        principal: Principal | null;
        req: RequestContext | null;
        documentId: string;
        values: { propertyId: string; value: string | number | null }[];
        via: string;
        pointer: (index: number) => string;
      },
    ): Promise<{ changed: { propertyId: string; name: string; before: string | null; after: string | null }[] }>;
    recordScanVerdict(
      trx: Knex.Transaction,
      input: { documentVersionId: string; verdict: ScanVerdict; engine: string; detail: string | null },
    ): Promise<{ changed: boolean }>;
    /**
     * The built-in malware engine's content signatures (EICAR, executables, PDF active content), run in the PDF
     * worker pool: what was found, or null. Rejects with PDF_TOO_COMPLEX when a PDF is over its budget and
     * PDF_WORK_BUSY when the pool is full.
     */
    builtinThreat(bytes: Uint8Array): Promise<string | null>;
  };
}

/** Registers a plugin's routes: only operations the contract marks with `x-plugin: <name>`. */
export interface PluginRouter {
  operation<K extends keyof operations>(operationId: K, options: RouteOptions, handler: Handler<K>): void;
}

/** The plugin contract (STYLE.md). */
export interface Plugin<C = unknown> {
  /** kebab-case; prefixes its tables, jobs and migrations table. */
  name: string;
  /** Plan feature gating every route and hook of the plugin (403 PLAN_FEATURE_UNAVAILABLE). */
  feature?: PlanFeature;
  /** Plugins that must be present and on; a missing or cyclic dependency stops start-up. */
  dependsOn?: string[];
  /** This plugin's configuration: built from the service config and its KEIYAKU_PLUGIN_<NAME>_* slice, then validated. */
  config?: { schema: Record<string, unknown>; read(config: Config, slice: Record<string, string>): unknown };
  /** Its own knex migrations folder, recorded in its own table. */
  migrations?: URL;
  routes?(router: PluginRouter, ctx: PluginContext<C>): void;
  /** Jobs named '<name>.<job>', each with its retry policy. */
  jobs?: Record<string, PluginJob<C>>;
  hooks?: { [E in HookName]?: HookHandler<E, C> };
  /** Checks core makes before going on (GuardEvents); a guard refuses by throwing an AppError. */
  guards?: { [E in GuardName]?: GuardHandler<E, C> };
  /** Signature types this plugin provides (core/signing/signature-types.ts); a sign task names one by code. */
  signatureTypes?: SignatureType[];
  start?(ctx: PluginContext<C>): Promise<void>;
  stop?(ctx: PluginContext<C>): Promise<void>;
}

/** A plugin's job: the handler gets the job and the plugin's context; throwing retries it per the policy. */
export interface PluginJob<C> {
  handler: (job: Parameters<JobHandler<unknown>>[0], ctx: PluginContext<C>) => Promise<void>;
  policy?: (config: C) => Partial<QueuePolicy>;
}

/** Identity helper that types a plugin definition. */
export function definePlugin<C>(plugin: Plugin<C>): Plugin<C> {
  return plugin;
}

/** A plugin configuration, dependency or naming problem; start-up stops and names the plugin. */
export class PluginError extends Error {}

/** Orders plugins so each comes after what it depends on; throws on a missing or cyclic dependency. */
export function orderPlugins(plugins: Plugin<never>[]): Plugin<never>[] {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const ordered: Plugin<never>[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: Plugin<never>, path: string[]) => {
    if (state.get(plugin.name) === 'done') return;
    if (state.get(plugin.name) === 'visiting') {
      throw new PluginError(`plugin ${plugin.name}: cyclic dependency ${[...path, plugin.name].join(' -> ')}`);
    }
    state.set(plugin.name, 'visiting');
    for (const dependency of plugin.dependsOn ?? []) {
      const target = byName.get(dependency);
      if (!target)
        throw new PluginError(`plugin ${plugin.name} depends on ${dependency}, which is missing or turned off`);
      visit(target, [...path, plugin.name]);
    }
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

interface Loaded {
  plugin: Plugin<never>;
  ctx: PluginContext<never>;
}

/** Shared services the host hands to each plugin context. */
export type HostDeps = Pick<
  CoreDeps,
  'config' | 'knex' | 'clock' | 'jobs' | 'mailer' | 'oplog' | 'logger' | 'files' | 'signatureTypes' | 'pdfWork'
> & {
  /** Sign-in with an identity a plugin proved; absent in hosts that serve no sign-in (tests of the host alone). */
  signIn?: Pick<SignIn, 'signInWithIdentity'>;
  /** A completed document's files (core/modules/documents/completion-certificate.ts). */
  completedFiles?: (documentId: string) => Promise<CompletedDocumentFiles>;
  /** Document property writes (core/modules/documents/update.ts writeDocumentProperties). */
  writeDocumentProperties?: PluginContext['documents']['writeProperties'];
  /** PDF signing with the business-operator key (core/signing). */
  sealPdf?: PluginContext['sealPdf'];
};

/**
 * Loads plugins in the order STYLE.md gives: validate config, check dependsOn, migrate, register routes, jobs and
 * hooks, then start; stop runs in reverse. Plugins switched off by configuration are not loaded at all.
 */
export class PluginHost {
  private loaded: Loaded[] = [];
  readonly disabled: string[];

  constructor(
    private readonly available: Plugin<never>[],
    private readonly deps: HostDeps,
  ) {
    const names = new Set<string>();
    for (const plugin of available) {
      if (!/^[a-z][a-z0-9-]*$/.test(plugin.name))
        throw new PluginError(`plugin name "${plugin.name}" is not kebab-case`);
      if (names.has(plugin.name)) throw new PluginError(`plugin ${plugin.name} is listed twice`);
      names.add(plugin.name);
    }
    const unknown = deps.config.disabledPlugins.filter((name) => !names.has(name));
    if (unknown.length > 0) {
      throw new PluginError(
        `KEIYAKU_PLUGINS_DISABLED names no such plugin: ${unknown.join(', ')} (known: ${[...names].join(', ')})`,
      );
    }
    this.disabled = available.filter((p) => deps.config.disabledPlugins.includes(p.name)).map((p) => p.name);
  }

  /** Validates configuration and dependencies, then migrates every enabled plugin. */
  async load(): Promise<void> {
    const enabled = this.available.filter((p) => !this.disabled.includes(p.name));
    // STYLE.md's order: every configuration is validated before dependencies are checked.
    const contexts = new Map(enabled.map((plugin) => [plugin.name, this.contextFor(plugin)]));
    this.loaded = orderPlugins(enabled).map((plugin) => ({ plugin, ctx: contexts.get(plugin.name)! }));
    for (const { plugin } of this.loaded) {
      for (const type of plugin.signatureTypes ?? []) this.deps.signatureTypes.register(type, plugin.name);
      if (plugin.migrations)
        await migrateFolder(this.deps.knex, plugin.migrations, `knex_migrations_${plugin.name.replace(/-/g, '_')}`);
    }
  }

  private contextFor(plugin: Plugin<never>): PluginContext<never> {
    let config: unknown = {};
    if (plugin.config) {
      const raw = plugin.config.read(
        this.deps.config,
        this.deps.config.pluginConfig[plugin.name.replace(/-/g, '')] ?? {},
      );
      const ajv = new Ajv2020({ useDefaults: true, coerceTypes: true, allErrors: true, strict: false });
      const validate = ajv.compile(plugin.config.schema);
      if (!validate(raw)) {
        const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
        throw new PluginError(`plugin ${plugin.name}: invalid configuration: ${problems}`);
      }
      config = raw;
    }
    const { knex, clock, jobs, mailer, oplog, logger, files, pdfWork, signIn, completedFiles } = this.deps;
    const { writeDocumentProperties, sealPdf } = this.deps;
    const missing = (what: string) => () => Promise.reject(new PluginError(`${what} is not available in this host`));
    return {
      name: plugin.name,
      config: config as never,
      db: knex,
      clock,
      jobs,
      mail: mailer,
      log: logger.child({ plugin: plugin.name }),
      oplog,
      publicUrl: this.deps.config.publicUrl,
      runsWorkers: this.deps.config.runWorkers,
      files,
      secrets: createSecrets(this.deps.config.masterKey, `plugin:${plugin.name}`),
      auth: {
        signInWithIdentity: signIn
          ? (input, req) => signIn.signInWithIdentity(input, req)
          : missing('sign-in with an identity'),
      },
      users: {
        provision: (trx, input, req) => provisionUser({ clock, oplog }, trx, input, req),
      },
      usage: {
        record: (trx, organizationId, metric, amount) => recordUsage(trx, organizationId, metric, amount, clock.now()),
        current: async (organizationId, metric, db = knex) => {
          const month = tokyoMonth(clock.now());
          const row = await db('usage_counters').where({ organization_id: organizationId, month, metric }).first();
          return { month, count: Number(row?.count ?? 0) };
        },
        month: (organizationId, month, db = knex) => usageOfMonth(db, organizationId, month),
      },
      plans: PLAN_CATALOG,
      sealPdf: sealPdf ?? missing('PDF signing'),
      documents: {
        completedFiles: completedFiles ?? missing('completed document files'),
        assertReadable: async (documentId, principal) => {
          const { access, flow, document } = await documentAccess(knex, principal, documentId);
          return {
            organizationId: document.organization_id,
            businessFlowId: flow.id,
            workspaceId: flow.workspace_id,
            status: document.status,
            name: document.name,
            isOwnerOrganization: access.isOwnerOrganization,
            canEdit: access.canEdit,
          };
        },
        writeProperties: writeDocumentProperties ?? missing('document property writes'),
        recordScanVerdict: (trx, input) => recordScanVerdict({ clock, oplog, jobs }, trx, input),
        builtinThreat: (bytes) => pdfWork.run('scan', { bytes }),
      },
    };
  }

  /** Registers routes on the API router and jobs on the queue. */
  register(api: ApiRouter): void {
    for (const { plugin, ctx } of this.loaded) {
      const router: PluginRouter = {
        operation: (operationId, options, handler) => {
          const owner = this.pluginOf(api, operationId);
          if (owner !== plugin.name) {
            throw new PluginError(`plugin ${plugin.name} cannot bind ${operationId} (x-plugin: ${owner ?? 'none'})`);
          }
          api.operation(operationId, { feature: plugin.feature, ...options }, handler);
        },
      };
      plugin.routes?.(router, ctx);
      for (const [name, job] of Object.entries(plugin.jobs ?? {}) as [string, PluginJob<never>][]) {
        if (!name.startsWith(`${plugin.name}.`))
          throw new PluginError(`plugin ${plugin.name}: job ${name} lacks its prefix`);
        this.deps.jobs.register(name, (j) => job.handler(j, ctx), job.policy?.(ctx.config));
      }
    }
  }

  private pluginOf(api: ApiRouter, operationId: string): string | undefined {
    const op = api.contract.operation(operationId);
    const item = (api.contract.document.paths as Record<string, Record<string, Record<string, unknown>>>)[op.path]!;
    return item[op.method.toLowerCase()]!['x-plugin'] as string | undefined;
  }

  /** Contract operations of plugins switched off: they answer 403 PLAN_FEATURE_UNAVAILABLE. */
  unboundOperations(api: ApiRouter) {
    return [...api.contract.operations.values()]
      .filter((op) => {
        const owner = this.pluginOf(api, op.operationId);
        return owner !== undefined && !this.loaded.some((l) => l.plugin.name === owner);
      })
      .map((op) => ({ operationId: op.operationId, reason: 'plugin-disabled' as const }));
  }

  async start(): Promise<void> {
    for (const { plugin, ctx } of this.loaded) await plugin.start?.(ctx);
  }

  async stop(): Promise<void> {
    for (const { plugin, ctx } of [...this.loaded].reverse()) {
      try {
        await plugin.stop?.(ctx);
      } catch (error) {
        ctx.log.error({ err: error }, 'plugin failed to stop');
      }
    }
  }

  /** Runs the event's hooks of every loaded plugin whose feature the organization's plan has. */
  async emit<E extends HookName>(event: E, payload: HookEvents[E]): Promise<void> {
    for (const { plugin, ctx } of this.loaded) {
      const hook = plugin.hooks?.[event] as HookHandler<E, never> | undefined;
      if (!hook) continue;
      // A payload may carry the organization's paid options, so option-gated plugins (aiOcr) get their hooks.
      const options = (payload as { options?: readonly PaidOption[] }).options;
      if (plugin.feature && !planHasFeature(payload.plan, plugin.feature, options)) continue;
      try {
        await hook(payload, ctx);
      } catch (error) {
        ctx.log.error({ err: error, event }, 'hook failed');
      }
    }
  }

  /** Asks the guards of every loaded plugin whose feature the organization's plan has; the first refusal throws. */
  async guard<E extends GuardName>(event: E, payload: GuardEvents[E]): Promise<void> {
    for (const { plugin, ctx } of this.loaded) {
      const guard = plugin.guards?.[event] as GuardHandler<E, never> | undefined;
      if (!guard) continue;
      if (plugin.feature && !planHasFeature(payload.plan, plugin.feature, payload.options)) continue;
      await guard(payload, ctx);
    }
  }

  names(): string[] {
    return this.loaded.map((l) => l.plugin.name);
  }
}
