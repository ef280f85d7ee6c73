/*
 * Keyset paging (`page[after]` with `meta.page.next`) on the lists that can grow without bound: every item once
 * across pages in every sort (ties and NULLs included), stable while items are added, the same in the search body,
 * and a tampered or foreign cursor is 400 PAGE_CURSOR_INVALID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgresServer } from '../../core/db/prepared-client.ts';
import { firstGroupId, signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

const FLOWS = 53;

let app: TestApp;
let token: string;
let organizationId: string;
let ownerId: string;
let workspaceId: string;

const flowRows = (count: number, prefix: string, at: Date) =>
  Array.from({ length: count }, (_, i) => ({
    organization_id: organizationId,
    workspace_id: workspaceId,
    // Names repeat (ties broken by id); every third flow is complete (completedAt NULL on the others).
    name: `${prefix}${i % 7}`,
    status: i % 3 === 0 ? 'complete' : 'in_progress',
    completed_at: i % 3 === 0 ? new Date(at.getTime() + (i % 5) * 1000) : null,
    // Microsecond-apart creation times: a cursor must keep them exactly.
    created_at: new Date(at.getTime() + Math.floor(i / 4)),
    created_by: ownerId,
  }));

beforeAll(async () => {
  app = await startApp();
  const owner = await signedInOwner(app);
  token = owner.token;
  organizationId = owner.organizationId;
  ownerId = owner.ownerId;
  const groupId = await firstGroupId(app, organizationId);
  workspaceId = await seedWorkspace(app, organizationId, [{ groupId, isEditable: true }]);
  await app.service.deps.knex.batchInsert('business_flows', flowRows(FLOWS, 'flow', new Date('2026-01-01T00:00:00Z')));
  // Same milliseconds, different microseconds.
  await app.service.deps.knex.raw(
    `UPDATE business_flows SET created_at = created_at + (random() * 900)::int * interval '1 microsecond'
     WHERE organization_id = ?`,
    [organizationId],
  );
}, 60_000);
afterAll(() => app?.close());

const list = (query: Record<string, string | number>) => app.api.call('listBusinessFlows', { token, query });

async function readAll(query: Record<string, string | number>, between?: () => Promise<void>) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const answer = await list({ ...query, 'page[size]': 10, ...(after ? { 'page[after]': after } : {}) });
    expect(answer.status).toBe(200);
    ids.push(...(answer.body.data as { id: string }[]).map((flow) => flow.id));
    after = answer.body.meta.page.next;
    if (!after) return ids;
    await between?.();
  }
  throw new Error('more pages than items');
}

describe('keyset paging of business flows', () => {
  it.each(['-createdAt', 'createdAt', 'name', '-name', 'completedAt', '-completedAt'])(
    'reads every flow once in the order of page[number] (sort %s)',
    async (sort) => {
      const byKeys = await readAll({ sort });
      expect(new Set(byKeys).size).toBe(FLOWS);
      const byNumber = await list({ sort, 'page[size]': 100 });
      expect(byKeys).toEqual((byNumber.body.data as { id: string }[]).map((flow) => flow.id));
    },
  );

  it('neither repeats nor skips while flows are added in front', async () => {
    let batch = 0;
    const seen = await readAll({ sort: '-createdAt' }, async () => {
      batch += 1;
      await app.service.deps.knex('business_flows').insert(flowRows(3, `new${batch}-`, new Date()));
    });
    expect(seen).toHaveLength(FLOWS);
    expect(new Set(seen).size).toBe(FLOWS);
    await app.service.deps.knex('business_flows').where('name', 'like', 'new%').delete();
  });

  it('has no next on a page that is not full, and works in the search body', async () => {
    const first = await app.api.call('searchBusinessFlows', { token, body: { page: { size: 50 } } });
    expect(first.status).toBe(200);
    const second = await app.api.call('searchBusinessFlows', {
      token,
      body: { page: { size: 50, after: first.body.meta.page.next } },
    });
    expect(second.body.data).toHaveLength(FLOWS - 50);
    expect(second.body.meta.page.next).toBeUndefined();
    const ids = [...first.body.data, ...second.body.data].map((flow: { id: string }) => flow.id);
    expect(new Set(ids).size).toBe(FLOWS);
  });

  it('refuses a tampered, malformed or other-sort cursor with 400 PAGE_CURSOR_INVALID', async () => {
    const first = await list({ 'page[size]': 10 });
    const next: string = first.body.meta.page.next;
    const [sort, value] = JSON.parse(Buffer.from(next, 'base64url').toString('utf8'));
    const forged = [
      'not-a-cursor',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from(JSON.stringify([sort, value, "x' OR 1=1 --"])).toString('base64url'),
      Buffer.from(JSON.stringify([sort, 42, '00000000-0000-0000-0000-000000000000'])).toString('base64url'),
    ];
    for (const after of forged) {
      const answer = await list({ 'page[size]': 10, 'page[after]': after });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].code).toBe('PAGE_CURSOR_INVALID');
    }
    const otherSort = await list({ 'page[size]': 10, sort: 'name', 'page[after]': next });
    expect(otherSort.status).toBe(400);
    expect(otherSort.body.errors[0].code).toBe('PAGE_CURSOR_INVALID');
  });
});

describe('the list statements', () => {
  /** The statements one list request ran, with whether each was prepared. */
  async function statementsOf(query: Record<string, string | number>) {
    const knex = app.service.deps.knex;
    const seen: { sql: string; prepared: boolean }[] = [];
    const listener = (q: { sql: string; options?: { prepare?: boolean } }) => {
      seen.push({ sql: q.sql, prepared: q.options?.prepare === true });
    };
    knex.on('query', listener);
    try {
      expect((await list(query)).status).toBe(200);
    } finally {
      knex.off('query', listener);
    }
    return seen;
  }
  /** The LIMITs of the prepared statements (the page, the capped count, the flows' properties). */
  const limitsOf = (statements: { sql: string; prepared: boolean }[]) =>
    statements.flatMap(({ sql, prepared }) => (prepared ? (sql.match(/limit [^\s)]+/gi) ?? []) : []));
  const GENERIC = /^SET LOCAL plan_cache_mode = force_generic_plan$/;

  it('plan an unfiltered first page in creation order once for every caller, any other per execution', async () => {
    // pagination.ts PageOptions.unfiltered: only visibility varies, so one plan serves all; a filter's values may
    // each want their own plan, and a deeper page's limits grow with its number.
    // The embedded PGlite keeps no plans: there the statements simply run one after the other.
    const generic = onPostgresServer(app.service.deps.knex) ? 1 : 0;
    const ascending = await statementsOf({ 'page[size]': 17, sort: 'createdAt' });
    expect(ascending.filter(({ sql }) => GENERIC.test(sql))).toHaveLength(generic);
    const unfiltered = await statementsOf({ 'page[size]': 17 });
    const limits = limitsOf(unfiltered);
    expect(limits).toContain('limit 17');
    expect(limits).toContain('limit 201');
    expect(limits.filter((limit) => !/^limit \d+$/.test(limit))).toEqual([]);
    expect(unfiltered.filter(({ sql }) => GENERIC.test(sql))).toHaveLength(generic);
    const others: Record<string, string | number>[] = [
      { 'page[size]': 17, 'filter[status]': 'complete' },
      { 'page[size]': 17, 'page[number]': 2 },
      // Sorted other than by creation, the generic plan was measured slower (routes.ts listBusinessFlows).
      { 'page[size]': 17, sort: 'name' },
    ];
    for (const query of others) {
      const statements = await statementsOf(query);
      const bound = limitsOf(statements);
      expect(bound.length).toBeGreaterThan(0);
      expect(bound.filter((limit) => /^limit \d/.test(limit))).toEqual([]);
      expect(statements.filter(({ sql }) => GENERIC.test(sql))).toEqual([]);
    }
  });
});

describe('keyset paging of the other lists', () => {
  it('pages workspaces and my tasks by cursor too', async () => {
    for (const operation of ['listWorkspaces', 'listMyTasks'] as const) {
      const answer = await app.api.call(operation, { token, query: { 'page[size]': 1 } });
      expect(answer.status).toBe(200);
      if (answer.body.data.length === 1 && answer.body.meta.total > 1) {
        expect(typeof answer.body.meta.page.next).toBe('string');
      }
      const bad = await app.api.call(operation, { token, query: { 'page[after]': 'garbage' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].code).toBe('PAGE_CURSOR_INVALID');
    }
  });
});

describe('flows of several organizations, merged', () => {
  it("pages a partner's flows and the caller's own in one order, by number and by cursor, counted once", async () => {
    // A partner organization shares a public workspace with the caller's organization: its flows interleave in time
    // with the caller's own, and each organization's flows are read from its own index, then merged.
    const partner = await signedInOwner(app, { organizationName: '取引先株式会社' });
    const partnerWorkspace = await seedWorkspace(app, partner.organizationId, [
      { partnerOrganizationId: organizationId, isPublic: true },
    ]);
    const at = new Date('2026-01-01T00:00:00Z');
    const shared = Array.from({ length: 37 }, (_, i) => ({
      organization_id: partner.organizationId,
      workspace_id: partnerWorkspace,
      name: `shared${i % 5}`,
      status: 'in_progress',
      created_at: new Date(at.getTime() + Math.floor(i / 3) * 2 + 1),
      created_by: partner.ownerId,
    }));
    await app.service.deps.knex.batchInsert('business_flows', shared);
    const expected = async (order: 'asc' | 'desc') =>
      (
        await app.service.deps
          .knex('business_flows')
          .whereIn('organization_id', [organizationId, partner.organizationId])
          .whereNot('status', 'draft')
          .orderBy([
            { column: 'created_at', order },
            { column: 'id', order },
          ])
          .select('id')
      ).map((row) => row.id as string);
    const want = await expected('desc');
    expect(want).toHaveLength(FLOWS + 37);
    expect(await readAll({ sort: '-createdAt' })).toEqual(want);
    expect(await readAll({ sort: 'createdAt' })).toEqual(await expected('asc'));
    const byNumber: string[] = [];
    for (let number = 1; number <= 3; number += 1) {
      const page = await list({ sort: '-createdAt', 'page[size]': 40, 'page[number]': number });
      expect(page.body.meta).toMatchObject({ total: FLOWS + 37, totalCapped: false });
      byNumber.push(...(page.body.data as { id: string }[]).map((flow) => flow.id));
    }
    expect(byNumber).toEqual(want);
    // The partner's owner sees only their own organization's flows (the caller's are not shared with them).
    const theirs = await app.api.call('listBusinessFlows', { token: partner.token, query: { 'page[size]': 100 } });
    expect(theirs.body.meta.total).toBe(37);
  });
});
