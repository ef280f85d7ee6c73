import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn, signUpOrganization } from '../../tests/helpers/accounts.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { createLogger } from '../log.ts';
import { createService } from '../service.ts';
import { definePlugin, type HookName, orderPlugins, type Plugin, PluginError } from './index.ts';

// Test plugins: small doubles defined here, with one migrations folder under tests/plugins/.
const journal: string[] = [];

function tracer(name: string, dependsOn: string[] = [], options: { failStop?: boolean } = {}): Plugin<never> {
  return definePlugin({
    name,
    dependsOn,
    async start(ctx) {
      journal.push(`start ${ctx.name}`);
    },
    async stop(ctx) {
      journal.push(`stop ${ctx.name}`);
      if (options.failStop) throw new Error(`${ctx.name} cannot stop`);
    },
  }) as Plugin<never>;
}

interface NotesConfig {
  limit: number;
  greeting: string;
}
const startedWith: NotesConfig[] = [];

/** A plugin with its own migrations, a validated config slice (KEIYAKU_PLUGIN_HOSTNOTES_*) and a job. */
const hostNotes = definePlugin<NotesConfig>({
  name: 'host-notes',
  migrations: new URL('../../tests/plugins/host-notes/migrations/', import.meta.url),
  config: {
    schema: {
      type: 'object',
      required: ['limit'],
      properties: {
        limit: { type: 'integer', minimum: 1 },
        greeting: { type: 'string', default: 'こんにちは' },
      },
    },
    read: (_config, slice) => ({ limit: slice.LIMIT, greeting: slice.GREETING }),
  },
  async start(ctx) {
    startedWith.push(ctx.config);
  },
  jobs: {
    'host-notes.write': {
      async handler(job, ctx) {
        const { text } = job.data as { text: string };
        await ctx.db('host_notes_entries').insert({ text: `${ctx.config.greeting} ${text}`, job_id: job.id });
      },
    },
  },
}) as Plugin<never>;

const heard: string[] = [];
const listen = (event: HookName) => async (payload: { organizationId: string }, ctx: { name: string }) => {
  heard.push(`${ctx.name} ${event} ${payload.organizationId}`);
};

/**
 * Owns the mail plugin's operations (x-plugin: mail) in place of the real mail plugin, gated by the `templates`
 * feature: every operation of the contract needs a handler.
 */
const gatedMailDouble = definePlugin({
  name: 'mail',
  feature: 'templates',
  routes(router) {
    router.operation('listMailDeliveries', {}, async () => ({ body: { data: [], meta: { total: 0 } } }));
    router.operation('ingestMailBounce', {}, async () => ({
      body: { data: { type: 'MailBounce', attributes: { recipients: [] } } },
    }));
  },
  hooks: {
    'organization.signed_up': listen('organization.signed_up'),
    'auth.signed_in': listen('auth.signed_in'),
  },
}) as Plugin<never>;

const ungatedAudit = definePlugin({
  name: 'audit-trail',
  hooks: {
    'organization.signed_up': listen('organization.signed_up'),
    'auth.signed_in': listen('auth.signed_in'),
  },
}) as Plugin<never>;

const failingHook = definePlugin({
  name: 'flaky',
  hooks: {
    async 'organization.signed_up'() {
      throw new Error('the flaky hook always fails');
    },
  },
}) as Plugin<never>;

interface BootFailure {
  error: Error;
  /** Tables of the database after the failed start-up. */
  tables: string[];
}

/** Starts the service on a fresh copy of the test database and returns why start-up stopped. */
async function bootFailure(plugins: Plugin<never>[], env: Record<string, string> = {}): Promise<BootFailure> {
  const isolated = await isolatedDatabase(inject('dbKind'), inject('dbTemplate'));
  const database = await openDatabase(isolated.config);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-host-'));
  try {
    const config = loadConfig({
      KEIYAKU_DATA_DIR: dataDir,
      KEIYAKU_MASTER_KEY: randomBytes(32).toString('base64'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    });
    config.database = isolated.config;
    let error: Error | null = null;
    try {
      const service = await createService(config, { database, plugins, logger: createLogger('silent') });
      await service.close();
    } catch (caught) {
      error = caught as Error;
    }
    if (!error) throw new Error('start-up was expected to stop, but the service started');
    const { rows } = (await database.knex.raw(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
    )) as { rows: { table_name: string }[] };
    return { error, tables: rows.map((row) => row.table_name) };
  } finally {
    await database.close();
    await isolated.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('plugin host start-up checks', () => {
  it('stops start-up naming the plugin whose dependsOn is missing', async () => {
    const { error } = await bootFailure([tracer('needs-ghost', ['ghost'])]);
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe('plugin needs-ghost depends on ghost, which is missing or turned off');
  });

  it('stops start-up when a plugin’s dependency is turned off by KEIYAKU_PLUGINS_DISABLED', async () => {
    const { error } = await bootFailure([tracer('base'), tracer('on-top', ['base'])], {
      KEIYAKU_PLUGINS_DISABLED: 'base',
    });
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe('plugin on-top depends on base, which is missing or turned off');
  });

  it('stops start-up when KEIYAKU_PLUGINS_DISABLED names a plugin that does not exist', async () => {
    const { error } = await bootFailure([tracer('base')], { KEIYAKU_PLUGINS_DISABLED: 'bsae' });
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe('KEIYAKU_PLUGINS_DISABLED names no such plugin: bsae (known: base)');
  });

  it('stops start-up naming a dependency cycle', async () => {
    const { error } = await bootFailure([tracer('cycle-a', ['cycle-b']), tracer('cycle-b', ['cycle-a'])]);
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe('plugin cycle-a: cyclic dependency cycle-a -> cycle-b -> cycle-a');
  });

  it('stops start-up naming the plugin whose configuration breaks its schema, before migrating or starting it', async () => {
    startedWith.length = 0;
    const { error, tables } = await bootFailure([hostNotes], { KEIYAKU_PLUGIN_HOSTNOTES_LIMIT: 'zero' });
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toMatch(/^plugin host-notes: invalid configuration: \/limit must be integer/);
    expect(tables).not.toContain('knex_migrations_host_notes');
    expect(tables).not.toContain('host_notes_entries');
    expect(startedWith).toEqual([]);

    const missing = await bootFailure([hostNotes]);
    expect(missing.error.message).toMatch(
      /^plugin host-notes: invalid configuration: .*must have required property 'limit'/,
    );
  });

  it('refuses a job whose name lacks the plugin-name prefix', async () => {
    const sloppy = definePlugin({
      name: 'sloppy',
      jobs: { 'reminders.send': { handler: async () => {} } },
    }) as Plugin<never>;
    const { error } = await bootFailure([sloppy]);
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe('plugin sloppy: job reminders.send lacks its prefix');
  });

  it('refuses to let a plugin bind an operation that openapi.yaml gives to another owner', async () => {
    const intruder = definePlugin({
      name: 'intruder',
      routes(router) {
        router.operation('listMailDeliveries', {}, async () => ({ body: { data: [], meta: { total: 0 } } }));
      },
    }) as Plugin<never>;
    const { error } = await bootFailure([intruder]);
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe('plugin intruder cannot bind listMailDeliveries (x-plugin: mail)');

    const coreThief = definePlugin({
      name: 'core-thief',
      routes(router) {
        router.operation('getHealth', {}, async () => ({ body: { status: 'ok' } }));
      },
    }) as Plugin<never>;
    expect((await bootFailure([coreThief])).error.message).toBe(
      'plugin core-thief cannot bind getHealth (x-plugin: none)',
    );
  });

  it('refuses a plugin name that is not kebab-case, or listed twice', async () => {
    expect((await bootFailure([tracer('Bad_Name')])).error.message).toBe('plugin name "Bad_Name" is not kebab-case');
    expect((await bootFailure([tracer('twin'), tracer('twin')])).error.message).toBe('plugin twin is listed twice');
  });
});

describe('orderPlugins', () => {
  it('puts every plugin after what it depends on, keeping the given order otherwise', () => {
    const names = orderPlugins([
      tracer('c', ['b']),
      tracer('solo'),
      tracer('b', ['a']),
      tracer('a'),
      tracer('d', ['a', 'c']),
    ]).map((p) => p.name);
    expect(names).toEqual(['a', 'b', 'c', 'solo', 'd']);
  });

  it('names the plugin that depends on itself', () => {
    expect(() => orderPlugins([tracer('selfish', ['selfish'])])).toThrow(
      'plugin selfish: cyclic dependency selfish -> selfish',
    );
  });
});

describe('a service running test plugins', () => {
  let app: TestApp;
  let closed = false;

  beforeAll(async () => {
    journal.length = 0;
    startedWith.length = 0;
    app = await startApp({
      env: { KEIYAKU_PLUGIN_HOSTNOTES_LIMIT: '5' },
      plugins: [
        tracer('third', ['second']),
        tracer('second', ['first'], { failStop: true }),
        tracer('first'),
        hostNotes,
        gatedMailDouble,
        ungatedAudit,
        failingHook,
      ],
    });
  });
  afterAll(async () => {
    if (!closed) await app?.close();
  });

  it('starts plugins in dependency order', () => {
    expect(journal).toEqual(['start first', 'start second', 'start third']);
    expect(app.service.host.names().slice(0, 3)).toEqual(['first', 'second', 'third']);
  });

  it('validates a plugin’s configuration slice, coercing values and applying defaults', () => {
    expect(startedWith).toEqual([{ limit: 5, greeting: 'こんにちは' }]);
  });

  it('migrates a plugin’s own folder into its own knex migrations table', async () => {
    const { knex } = app.service.deps;
    const applied = await knex('knex_migrations_host_notes').pluck('name');
    expect(applied).toEqual(['20261121000000_host_notes_entries']);
    expect(await knex('knex_migrations').where({ name: '20261121000000_host_notes_entries' }).first()).toBeUndefined();
    expect(await knex.schema.hasTable('host_notes_entries')).toBe(true);
    // Plugins without migrations get no table.
    expect(await knex.schema.hasTable('knex_migrations_audit_trail')).toBe(false);
  });

  it('runs a plugin’s prefixed job with the plugin’s own context', async () => {
    const { jobs, knex } = app.service.deps;
    const id = await jobs.send('host-notes.write', { text: '議事録' });
    const deadline = Date.now() + 15_000;
    let row: { text: string; job_id: string } | undefined;
    while (!row && Date.now() < deadline) {
      row = await knex('host_notes_entries').where({ job_id: id }).first('text', 'job_id');
      if (!row) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row).toEqual({ text: 'こんにちは 議事録', job_id: id });
  });

  it('runs a plugin’s hook only when the organization’s plan has the plugin’s feature, and survives a failing hook', async () => {
    const org = await signUpOrganization(app); // the flaky hook throws here; sign-up is not undone
    expect(heard.filter((line) => line.endsWith(org.organizationId))).toEqual([
      `audit-trail organization.signed_up ${org.organizationId}`,
    ]);

    await app.service.deps.knex('organizations').where({ id: org.organizationId }).update({ plan: 'standard' });
    await signIn(app, org.loginId);
    expect(heard.filter((line) => line.endsWith(org.organizationId))).toEqual([
      `audit-trail organization.signed_up ${org.organizationId}`,
      `mail auth.signed_in ${org.organizationId}`,
      `audit-trail auth.signed_in ${org.organizationId}`,
    ]);
  });

  it('gates a plugin’s routes by its feature: 403 PLAN_FEATURE_UNAVAILABLE until the plan has it', async () => {
    const org = await signUpOrganization(app);
    const token = (await signIn(app, org.loginId)).authorizationToken;
    const refused = await app.api.call('listMailDeliveries', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('PLAN_FEATURE_UNAVAILABLE');

    await app.service.deps.knex('organizations').where({ id: org.organizationId }).update({ plan: 'standard' });
    const allowed = await app.api.call('listMailDeliveries', { token });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({ data: [], meta: { total: 0 } });
  });

  it('stops plugins in reverse order, even when one of them fails to stop', async () => {
    journal.length = 0;
    closed = true;
    await app.close();
    expect(journal).toEqual(['stop third', 'stop second', 'stop first']);
  });
});
