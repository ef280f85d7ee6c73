/**
 * `npm run bench:flows`: business flow list and custom-property search at scale.
 *
 * Seeds ONE organization with BENCH_FLOWS business flows (100,000) holding BENCH_DOCUMENTS_PER_FLOW documents
 * each (10, so 1,000,000 documents) in BENCH_WORKSPACES workspaces, every flow carrying the three values the
 * Electronic Book Preservation Act searches by (transaction date, amount, counterparty), straight into the database
 * with set-based SQL (seeding through the API would take hours and measure nothing we care about). Then starts the
 * real server as its own process and loads, one after the other, each after a warm-up:
 *   GET /healthz                               the framework ceiling (no database);
 *   GET /core/v1/business-flows                newest first, 20 a page, with meta.total (capped at 200);
 *   GET /core/v1/business-flows page 50        the 50th page of 20 (past what the capped count covers);
 *   GET /core/v1/business-flows page[after]    the same 50th page by keys (the 49th page's meta.page.next);
 *   POST /core/v1/business-flows/search        amount range;
 *   POST /core/v1/business-flows/search        transaction date range AND amount range AND counterparty contains;
 *   GET /core/v1/tasks/mine                    the owner's executable tasks, 20 a page (the inbox's first section);
 *   GET /core/v1/me/inbox                      the home screen: five sections with capped counts and warnings;
 *   the flow list and the inbox again as a member of the owner's group who is no administrator (the visibility rule
 *   in full, as for most users).
 * The loads above run as the owner, an administrator (who sees every flow of the organization).
 * For the inbox the seed also has what a living organization has: every tenth flow's tasks wait on another group
 * (waiting for others), completed flows carry their completion time (the last 30 days: completed recently), one
 * flow in fifty has a remanded document, one in a thousand a document the malware scan stopped, and the owner has
 * 200 drafts.
 * Latency percentiles (p50/p95/p99) come from every response's own time, recorded by this process. The targets
 * table (bench/targets.ts) ends the output: p99 < 50 ms at 20 connections for every list.
 *
 * Needs PostgreSQL (DATABASE_URL, default keiyaku_bench_flows on BENCH_POSTGRES_URL's server, created and
 * dropped by the run); the seed stays if BENCH_KEEP=1, and a later run with BENCH_KEEP=1 measures that seed again
 * instead of seeding anew. BENCH_ONLY=inbox,tasks loads only the targets whose label holds one of those words; BENCH_SERVER_NODE_ARGS passes Node
 * options to the server (a CPU profile under load, say). Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (20),
 * BENCH_WARMUP_SECONDS (2), BENCH_FLOWS, BENCH_DOCUMENTS_PER_FLOW, BENCH_WORKSPACES (20).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { call, signUpAndIn } from './api.ts';
import { intFromEnv, scratchDatabaseUrl } from './env.ts';
import { freePort, percentile, startServer } from './server.ts';
import { reportTargets, type TargetRow } from './targets.ts';

/** The issue's target: every list below 50 ms at the 99th percentile with 20 connections. */
const TARGET_P99_MS = 50;
const TARGET_CONNECTIONS = 20;

const SECONDS = intFromEnv('BENCH_SECONDS', 10, 1);
/** Each target is loaded at each of these connection counts: 1 shows a user's latency, 20 a busy office's. */
const CONNECTIONS = (process.env.BENCH_CONNECTIONS || '1,20').split(',').map((value) => {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`BENCH_CONNECTIONS must list integers ≥ 1, got "${value}"`);
  return count;
});
const WARMUP_SECONDS = intFromEnv('BENCH_WARMUP_SECONDS', 2, 0);
const FLOWS = intFromEnv('BENCH_FLOWS', 100_000, 1);
const DOCUMENTS_PER_FLOW = intFromEnv('BENCH_DOCUMENTS_PER_FLOW', 10, 0);
const WORKSPACES = intFromEnv('BENCH_WORKSPACES', 20, 1);
/** BENCH_ONLY=inbox,tasks: load only the targets whose label contains one of these (GET /healthz always). */
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((part) => part.trim()) : null;
const DATABASE_URL = process.env.DATABASE_URL || scratchDatabaseUrl('keiyaku_bench_flows');

interface Target {
  label: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** Who asks: the owner (an administrator, who sees every flow of the organization) or a member of its group. */
  as?: 'owner' | 'member';
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

async function recreateDatabase(url: string, keep: boolean): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    if (!keep) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
      if (error.code !== '42P04') throw error; // already there (BENCH_KEEP)
    });
  } finally {
    await client.end();
  }
}

interface Seeded {
  workspaceId: string;
  amountId: string;
  dateId: string;
  counterpartyId: string;
}

/** Everything set-based: a few statements insert the flows, documents, versions, tasks and property values. */
async function seed(client: pg.Client, loginId: string): Promise<Seeded> {
  const { rows } = await client.query(
    `SELECT u.id AS user_id, u.organization_id, g.id AS group_id
       FROM users u JOIN group_members m ON m.user_id = u.id JOIN groups g ON g.id = m.group_id
      WHERE u.login_id = $1 LIMIT 1`,
    [loginId],
  );
  const { user_id: userId, organization_id: org, group_id: groupId } = rows[0];
  // A group the owner is not in: its tasks wait on others (the inbox's "waiting for others").
  const otherGroup = await client.query(
    `INSERT INTO groups (organization_id, name) VALUES ($1, '他部署') RETURNING id`,
    [org],
  );
  const otherGroupId = otherGroup.rows[0].id as string;
  await client.query(`UPDATE organizations SET plan = 'professional' WHERE id = $1`, [org]);
  const property = async (name: string, inputType: number, extra: Record<string, unknown>) => {
    const columns = ['organization_id', 'name', 'input_type', 'scope', ...Object.keys(extra)];
    const values = [org, name, inputType, 10, ...Object.values(extra)];
    const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
    const result = await client.query(
      `INSERT INTO custom_properties (${columns.join(', ')}) VALUES (${placeholders}) RETURNING id`,
      values,
    );
    return result.rows[0].id as string;
  };
  const dateId = await property('取引年月日', 30, {});
  const amountId = await property('取引金額', 10, { number_unit: 20, integer_length: 12, decimal_length: 0 });
  const counterpartyId = await property('取引先', 20, { max_length: 100 });

  const workspaces = await client.query(
    `INSERT INTO workspaces (organization_id, name, created_by)
       SELECT $1, 'ワークスペース ' || i, $2 FROM generate_series(1, $3::int) AS i RETURNING id`,
    [org, userId, WORKSPACES],
  );
  await client.query(
    `INSERT INTO workspace_participants (organization_id, workspace_id, kind, group_id, is_public, is_editable)
       SELECT $1, id, 'group', $2, true, true FROM workspaces WHERE organization_id = $1
       ON CONFLICT DO NOTHING`,
    [org, groupId],
  );
  const started = Date.now();
  // Flow i: created i minutes before now; statuses spread like a living organization's.
  await client.query(
    `INSERT INTO business_flows (organization_id, workspace_id, name, status, created_by, created_at, updated_at)
       SELECT $1, (SELECT array_agg(id ORDER BY id) FROM workspaces WHERE organization_id = $1)[1 + i % $3],
              '取引 ' || lpad(i::text, 6, '0'),
              (ARRAY['in_progress','in_progress','complete','complete','complete','incomplete','cancelled'])[1 + i % 7],
              $2, now() - make_interval(mins => i), now() - make_interval(mins => i)
         FROM generate_series(1, $4::int) AS i`,
    [org, userId, WORKSPACES, FLOWS],
  );
  console.log(`  ${FLOWS.toLocaleString('en-US')} flows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let step = Date.now();
  await client.query(
    `INSERT INTO property_values (organization_id, property_id, target_type, target_id, date_value, number_value, text_value)
       SELECT $1, p.id, 'business_flow', f.id,
              CASE WHEN p.id = $2 THEN DATE '2020-01-01' + (abs(hashtext(f.id::text)) % 2500) END,
              CASE WHEN p.id = $3 THEN (abs(hashtext(f.id::text || 'a')) % 100000) * 100 END,
              CASE WHEN p.id = $4 THEN '株式会社取引先' || (abs(hashtext(f.id::text || 'c')) % 5000) END
         FROM business_flows f CROSS JOIN (VALUES ($2::uuid), ($3::uuid), ($4::uuid)) AS p(id)
        WHERE f.organization_id = $1`,
    [org, dateId, amountId, counterpartyId],
  );
  console.log(
    `  ${(FLOWS * 3).toLocaleString('en-US')} property values in ${((Date.now() - step) / 1000).toFixed(1)} s`,
  );
  step = Date.now();
  await client.query(
    `INSERT INTO documents (organization_id, business_flow_id, name, status, current_order, created_by, created_at, updated_at)
       SELECT $1, f.id, '書類 ' || d, CASE WHEN f.status = 'complete' THEN 'completed' ELSE 'in_progress' END,
              CASE WHEN f.status = 'complete' THEN NULL ELSE 1 END, $2, f.created_at, f.created_at
         FROM business_flows f CROSS JOIN generate_series(1, $3::int) AS d
        WHERE f.organization_id = $1`,
    [org, userId, DOCUMENTS_PER_FLOW],
  );
  console.log(
    `  ${(FLOWS * DOCUMENTS_PER_FLOW).toLocaleString('en-US')} documents in ${((Date.now() - step) / 1000).toFixed(1)} s`,
  );
  step = Date.now();
  await client.query(
    `INSERT INTO document_versions (organization_id, document_id, version, file_name, content_type, size_bytes, sha256, scan_status)
       SELECT $1, id, 1, name || '.pdf', 'application/pdf', 123456, md5(id::text) || md5(id::text), 'clean'
         FROM documents WHERE organization_id = $1`,
    [org],
  );
  // Flow i's tasks: the owner's group, or (every tenth flow) the other group.
  await client.query(
    `INSERT INTO tasks (organization_id, document_id, task_order, type, assignee_kind, group_id, required, status, updated_at)
       SELECT $1, d.id, 1, 'approve', 'group',
              CASE WHEN substring(f.name from 4)::int % 10 = 0 THEN $3::uuid ELSE $2::uuid END, true,
              CASE WHEN d.status = 'completed' THEN 'completed' ELSE 'active' END, d.created_at
         FROM documents d JOIN business_flows f ON f.id = d.business_flow_id WHERE d.organization_id = $1`,
    [org, groupId, otherGroupId],
  );
  console.log(`  versions and tasks in ${((Date.now() - step) / 1000).toFixed(1)} s`);
  step = Date.now();
  await client.query(
    `UPDATE business_flows SET completed_at = created_at + interval '1 hour'
      WHERE organization_id = $1 AND status = 'complete'`,
    [org],
  );
  await client.query(
    `WITH firsts AS (
       SELECT DISTINCT ON (d.business_flow_id) d.id, d.created_at FROM documents d
         JOIN business_flows f ON f.id = d.business_flow_id
        WHERE f.organization_id = $1 AND f.status = 'in_progress' AND substring(f.name from 4)::int % 50 = 1
        ORDER BY d.business_flow_id, d.created_at, d.id),
     remanded AS (UPDATE documents d SET status = 'remanded' FROM firsts WHERE d.id = firsts.id RETURNING d.id)
     INSERT INTO document_events (organization_id, document_id, kind, reason, to_order, actor_user_id)
       SELECT $1, id, 'remanded', '金額を確認してください', 1, $2 FROM remanded`,
    [org, userId],
  );
  await client.query(
    `UPDATE document_versions v SET scan_status = 'malicious' FROM documents d JOIN business_flows f ON f.id = d.business_flow_id
      WHERE v.document_id = d.id AND f.organization_id = $1 AND f.status = 'in_progress'
        AND substring(f.name from 4)::int % 1000 = 2`,
    [org],
  );
  await client.query(
    `INSERT INTO business_flows (organization_id, workspace_id, name, status, created_by, created_at, updated_at)
       SELECT $1, (SELECT min(id::text)::uuid FROM workspaces WHERE organization_id = $1), '下書き ' || i, 'draft', $2,
              now() - make_interval(mins => i), now() - make_interval(mins => i)
         FROM generate_series(1, 200) AS i`,
    [org, userId],
  );
  console.log(
    `  inbox data (completion times, remands, blocked files, drafts) in ${((Date.now() - step) / 1000).toFixed(1)} s`,
  );
  step = Date.now();
  await client.query('VACUUM ANALYZE');
  console.log(`  VACUUM ANALYZE in ${((Date.now() - step) / 1000).toFixed(1)} s`);
  return { workspaceId: workspaces.rows[0].id, amountId, dateId, counterpartyId };
}

/**
 * With BENCH_KEEP=1, a database seeded by an earlier run (its owner signed up as `bench-…` with BENCH_FLOWS flows and
 * the inbox data) is measured again as it is: seeding takes minutes, measuring an index or a query change does not.
 */
async function keptSeed(client: pg.Client): Promise<{ loginId: string; seeded: Seeded } | null> {
  const exists = await client.query(`SELECT to_regclass('public.users') IS NOT NULL AS ready`);
  if (!exists.rows[0].ready) return null;
  const { rows } = await client.query(
    `SELECT u.login_id, u.organization_id,
            (SELECT min(w.id::text) FROM workspaces w WHERE w.organization_id = u.organization_id) AS workspace_id,
            (SELECT p.id FROM custom_properties p WHERE p.organization_id = u.organization_id AND p.name = '取引金額') AS amount_id,
            (SELECT p.id FROM custom_properties p WHERE p.organization_id = u.organization_id AND p.name = '取引年月日') AS date_id,
            (SELECT p.id FROM custom_properties p WHERE p.organization_id = u.organization_id AND p.name = '取引先') AS counterparty_id
       FROM users u
      WHERE u.login_id LIKE 'bench-%'
        AND EXISTS (SELECT 1 FROM business_flows f WHERE f.organization_id = u.organization_id AND f.name = '下書き 200')
        AND (SELECT count(*) FROM business_flows f WHERE f.organization_id = u.organization_id AND f.status <> 'draft') = $1
      LIMIT 1`,
    [FLOWS],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    loginId: row.login_id,
    seeded: {
      workspaceId: row.workspace_id,
      amountId: row.amount_id,
      dateId: row.date_id,
      counterpartyId: row.counterparty_id,
    },
  };
}

/**
 * A member of the owner's group who is no administrator (`member-<owner's login>`, the owner's password): the list's
 * visibility rule runs in full for them, as for most users, where the owner's administrator rights short-cut it.
 */
async function ensureMember(client: pg.Client, ownerLoginId: string): Promise<string> {
  const loginId = `member-${ownerLoginId}`;
  await client.query(
    `WITH owner AS (SELECT u.id, u.organization_id, u.password_hash FROM users u WHERE u.login_id = $1),
          member AS (
            INSERT INTO users (organization_id, login_id, name, email, password_hash)
            SELECT organization_id, $2, '一般社員', 'member@example.com', password_hash FROM owner
            ON CONFLICT DO NOTHING RETURNING id)
     INSERT INTO group_members (group_id, user_id)
     SELECT gm.group_id, member.id FROM member, owner JOIN group_members gm ON gm.user_id = owner.id`,
    [ownerLoginId, loginId],
  );
  return loginId;
}

/** Signs the kept seed's owner in (bench/api.ts signs every owner up with the same password). */
async function signIn(base: string, loginId: string): Promise<string> {
  const terms = await call<{ data: { id: string } }>(base, 'GET', '/core/v1/terms/current', 200);
  const auth = await call<{ data: { attributes: { authorizationToken: string } } }>(
    base,
    'POST',
    '/core/v1/auth',
    201,
    { data: { type: 'Auth', attributes: { loginId, password: 'Load2test9', acceptTermId: terms.data.id } } },
  );
  return auth.data.attributes.authorizationToken;
}

async function load(
  base: string,
  token: string,
  target: Target,
  connections: number,
  duration: number,
  record: boolean,
) {
  const times: number[] = [];
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: `${base}${target.path}`,
        method: target.method ?? 'GET',
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          ...(target.body ? { 'content-type': 'application/json' } : {}),
        },
        body: target.body ? JSON.stringify(target.body) : undefined,
        connections,
        duration,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  if (record) instance!.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await done;
  return { result, times };
}

async function measure(base: string, token: string, target: Target, connections: number): Promise<Figures> {
  if (WARMUP_SECONDS > 0) await load(base, token, target, connections, WARMUP_SECONDS, false);
  const { result, times } = await load(base, token, target, connections, SECONDS, true);
  times.sort((a, b) => a - b);
  return {
    requestsPerSecond: result.requests.average,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

function printTable(title: string, targets: Target[], figures: Figures[]): void {
  const ceiling = figures[0]!;
  const number = (value: number) => Math.round(value).toLocaleString('en-US');
  const ms = (value: number) => (value < 1 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`);
  const rows: string[][] = [
    ['', 'req/s', '÷ /healthz', 'p50', 'p95', 'p99', 'requests', 'errors/non-2xx'],
    ...targets.map((target, i) => {
      const f = figures[i]!;
      return [
        target.label,
        number(f.requestsPerSecond),
        `${(f.requestsPerSecond / ceiling.requestsPerSecond).toFixed(3)}×`,
        ms(f.p50),
        ms(f.p95),
        ms(f.p99),
        number(f.total),
        `${f.errors} / ${f.non2xx}`,
      ];
    }),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('   ');
  console.log(`\n${title}`);
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('   '));
  for (const row of rows.slice(1)) console.log(line(row));
}

async function main(): Promise<void> {
  const keep = process.env.BENCH_KEEP === '1';
  await recreateDatabase(DATABASE_URL, keep);
  // A kept database opens only with the master key it was created with: its data folder (master.key) stays too.
  const dataDir = keep
    ? path.join(os.tmpdir(), `keiyaku-bench-flows-${new URL(DATABASE_URL).pathname.slice(1)}`)
    : await mkdtemp(path.join(os.tmpdir(), 'keiyaku-bench-flows-'));
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  console.log(`Starting Keiyaku on PostgreSQL (${new URL(DATABASE_URL).pathname.slice(1)}) ...`);
  const server = await startServer(port, dataDir, DATABASE_URL);
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    const base = `http://127.0.0.1:${port}`;
    await client.connect();
    const kept = keep ? await keptSeed(client) : null;
    let token: string;
    let seeded: Seeded;
    let ownerLoginId: string;
    if (kept) {
      console.log(`Reusing the kept seed of ${kept.loginId} (BENCH_KEEP=1); ANALYZE ...`);
      await client.query('ANALYZE');
      token = await signIn(base, kept.loginId);
      seeded = kept.seeded;
      ownerLoginId = kept.loginId;
    } else {
      const owner = await signUpAndIn(base);
      token = owner.token;
      console.log(`Seeding ${FLOWS.toLocaleString('en-US')} flows × ${DOCUMENTS_PER_FLOW} documents ...`);
      seeded = await seed(client, owner.loginId);
      ownerLoginId = owner.loginId;
    }
    const tokens = { owner: token, member: await signIn(base, await ensureMember(client, ownerLoginId)) };
    const amount = { propertyId: seeded.amountId, from: '1000000', to: '1500000' };
    const date = { propertyId: seeded.dateId, from: '2023-04-01', to: '2023-06-30' };
    const counterparty = { propertyId: seeded.counterpartyId, contains: '取引先1' };
    // The 50th page by keys: the cursor the 49th page hands out (page[after]), as a client paging on would send it.
    let after: string | undefined;
    for (let page = 1; page < 50; page += 1) {
      const query = `page%5Bsize%5D=20${after ? `&page%5Bafter%5D=${encodeURIComponent(after)}` : ''}`;
      const answer = await call<{ meta: { page: { next?: string } } }>(
        base,
        'GET',
        `/core/v1/business-flows?${query}`,
        200,
        undefined,
        token,
      );
      after = answer.meta.page.next;
    }
    const targets = (
      [
        { label: 'GET /healthz', path: '/healthz' },
        { label: 'GET /business-flows (page 1 of 20)', path: '/core/v1/business-flows?page%5Bsize%5D=20' },
        {
          label: 'GET /business-flows (page 50 of 20)',
          path: '/core/v1/business-flows?page%5Bsize%5D=20&page%5Bnumber%5D=50',
        },
        {
          label: 'GET /business-flows (page 50 of 20 by page[after])',
          path: `/core/v1/business-flows?page%5Bsize%5D=20&page%5Bafter%5D=${encodeURIComponent(after ?? '')}`,
        },
        {
          label: 'POST search: amount range',
          path: '/core/v1/business-flows/search',
          method: 'POST',
          body: { filter: { properties: [amount] }, page: { size: 20 } },
        },
        {
          label: 'POST search: date AND amount AND counterparty',
          path: '/core/v1/business-flows/search',
          method: 'POST',
          body: { filter: { properties: [date, amount, counterparty] }, page: { size: 20 } },
        },
        { label: 'GET /tasks/mine (page 1 of 20)', path: '/core/v1/tasks/mine?page%5Bsize%5D=20' },
        { label: 'GET /me/inbox', path: '/core/v1/me/inbox' },
        {
          label: 'GET /business-flows as a member (page 1 of 20)',
          path: '/core/v1/business-flows?page%5Bsize%5D=20',
          as: 'member',
        },
        { label: 'GET /me/inbox as a member', path: '/core/v1/me/inbox', as: 'member' },
      ] as Target[]
    ).filter((target, i) => i === 0 || !ONLY || ONLY.some((part) => target.label.includes(part)));
    for (const target of targets.slice(1).filter((target) => !target.path.endsWith('/me/inbox'))) {
      const answer = await call<{ meta: { total: number; totalCapped?: boolean } }>(
        base,
        target.method ?? 'GET',
        target.path,
        200,
        target.body,
        tokens[target.as ?? 'owner'],
      );
      const total = `${answer.meta.total.toLocaleString('en-US')}${answer.meta.totalCapped ? '+' : ''}`;
      console.log(`  ${target.label}: ${total} matches`);
    }
    const inbox = await call<{ data: { attributes: Record<string, any> } }>(
      base,
      'GET',
      '/core/v1/me/inbox',
      200,
      undefined,
      token,
    );
    const shown = (section: { count: number; capped: boolean }) =>
      `${section.count.toLocaleString('en-US')}${section.capped ? '+' : ''}`;
    const sections = ['waitingForMe', 'waitingForOthers', 'drafts', 'completedRecently', 'remandedToMe'];
    console.log(
      `  GET /me/inbox: ${sections.map((name) => `${name} ${shown(inbox.data.attributes[name])}`).join(', ')}; ` +
        `warnings ${inbox.data.attributes.warnings.map((w: { code: string }) => w.code).join(', ') || 'none'}`,
    );
    const cpus = os.cpus();
    const rows: TargetRow[] = [];
    for (const connections of CONNECTIONS) {
      const figures: Figures[] = [];
      const loadBefore = os.loadavg()[0]!;
      for (const target of targets) {
        console.log(`Loading ${target.label} with ${connections}: ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s ...`);
        figures.push(await measure(base, tokens[target.as ?? 'owner'], target, connections));
      }
      printTable(
        `Keiyaku PostgreSQL · ${FLOWS.toLocaleString('en-US')} flows, ${(FLOWS * DOCUMENTS_PER_FLOW).toLocaleString('en-US')} documents in one organization · ` +
          `${connections} connection${connections > 1 ? 's' : ''} · ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up · Node ${process.version} · ` +
          `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'} · server in its own process · ` +
          `1-min load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after`,
        targets,
        figures,
      );
      if (figures.some((f) => f.errors > 0 || f.non2xx > 0)) process.exitCode = 1;
      if (connections !== TARGET_CONNECTIONS) continue;
      targets.forEach((target, i) => {
        if (i === 0) return;
        const f = figures[i]!;
        rows.push({
          area: 'lists',
          target: `${target.label}: p99 < ${TARGET_P99_MS} ms at ${connections} connections`,
          figure: `p99 ${f.p99.toFixed(1)} ms, ${Math.round(f.requestsPerSecond)} req/s`,
          met: f.p99 < TARGET_P99_MS && f.errors === 0 && f.non2xx === 0,
        });
      });
    }
    reportTargets(
      `Lists at ${FLOWS.toLocaleString('en-US')} flows, ${(FLOWS * DOCUMENTS_PER_FLOW).toLocaleString('en-US')} documents`,
      rows,
    );
  } finally {
    await client.end().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    if (!keep) {
      await rm(dataDir, { recursive: true, force: true });
      await dropDatabase(DATABASE_URL);
    }
  }
}

async function dropDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => client.end());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
