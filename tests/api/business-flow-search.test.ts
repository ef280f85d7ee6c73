import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { createFlow, createFlowProperty, insertDocument } from '../helpers/business-flows.ts';
import { type AdminSession, adminSession } from '../helpers/org-admin.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
let a: AdminSession;
/** A partner of A: takes part in W1 (not public: sees only flows with its tasks). */
let b: AdminSession;
let w1: string;
let w2: string;
const prop: Record<'date' | 'amount' | 'party' | 'kind' | 'secret' | 'docScope', string> = {} as never;
let kindOptions: { id: string; label: string }[];
const flows: Record<string, string> = {};

const knex = () => app.service.deps.knex;
const search = (token: string, body: Record<string, unknown>) => app.api.call('searchBusinessFlows', { token, body });
const list = (token: string, query: Record<string, string>) => app.api.call('listBusinessFlows', { token, query });
const names = (response: { body: any }) => response.body.data.map((f: any) => f.attributes.name).sort();

beforeAll(async () => {
  app = await startApp();
  a = await adminSession(app, { organizationName: '検索株式会社', plan: 'standard' });
  b = await adminSession(app, { organizationName: '検索の取引先' });
  w1 = await seedWorkspace(
    app,
    a.organizationId,
    [
      { groupId: a.defaultGroupId, isEditable: true },
      { partnerOrganizationId: b.organizationId, isPublic: false },
    ],
    { name: '第一ワークスペース' },
  );
  w2 = await seedWorkspace(app, a.organizationId, [{ groupId: a.defaultGroupId, isEditable: true }], {
    name: '第二ワークスペース',
  });
  prop.date = (await createFlowProperty(app, a.token, { name: '取引日', inputType: 30, publicToClient: true })).id;
  prop.amount = (await createFlowProperty(app, a.token, { name: '金額', inputType: 10, publicToClient: true })).id;
  prop.party = (await createFlowProperty(app, a.token, { name: '取引先名', inputType: 20, publicToClient: true })).id;
  const kind = await createFlowProperty(app, a.token, {
    name: '区分',
    inputType: 40,
    options: [{ label: '売上' }, { label: '仕入' }],
  });
  prop.kind = kind.id;
  kindOptions = kind.attributes.options;
  prop.secret = (await createFlowProperty(app, a.token, { name: '社内評価', inputType: 20 })).id;
  prop.docScope = (await createFlowProperty(app, a.token, { name: '書類の項目', inputType: 20, scope: 20 })).id;

  const seed = async (key: string, workspaceId: string, values: Record<string, string>, extra = {}) => {
    const properties = Object.entries(values).map(([k, value]) => ({
      propertyId: prop[k as keyof typeof prop],
      value,
    }));
    flows[key] = (await createFlow(app, a.token, workspaceId, { name: key, properties, ...extra })).id;
  };
  await seed('四月の売上', w1, { date: '2026-04-10', amount: '900', party: '山田商事', kind: kindOptions[0]!.id });
  await seed('五月の大口', w1, { date: '2026-05-20', amount: '10000', party: '山田商事', kind: kindOptions[0]!.id });
  await seed('五月の仕入', w2, { date: '2026-05-25', amount: '12000', party: '鈴木工業', kind: kindOptions[1]!.id });
  await seed(
    '六月の大口',
    w2,
    { date: '2026-06-01', amount: '50000', party: '山田商事', secret: 'A' },
    {
      systemLinkId: 'SYS-JUNE',
    },
  );
  // The partner holds a task only in 五月の大口.
  await insertDocument(
    app,
    { id: flows['五月の大口']!, organizationId: a.organizationId },
    { tasks: [{ partnerOrganizationId: b.organizationId }] },
  );
});
afterAll(() => app?.close());

describe('listBusinessFlows filters', () => {
  it('filter[q] matches the name or the ID for system link', async () => {
    expect(names(await list(a.token, { 'filter[q]': '大口' }))).toEqual(['五月の大口', '六月の大口']);
    expect(names(await list(a.token, { 'filter[q]': 'sys-june' }))).toEqual(['六月の大口']);
  });

  it('filter[status] takes a comma list of statuses', async () => {
    await knex()('business_flows').where({ id: flows['四月の売上'] }).update({ status: 'complete' });
    await knex()('business_flows').where({ id: flows['五月の仕入'] }).update({ status: 'cancelled' });
    try {
      expect(names(await list(a.token, { 'filter[status]': 'complete,cancelled' }))).toEqual([
        '五月の仕入',
        '四月の売上',
      ]);
      expect(names(await list(a.token, { 'filter[status]': 'in_progress' }))).toEqual(['五月の大口', '六月の大口']);
    } finally {
      await knex()('business_flows')
        .whereIn('id', [flows['四月の売上']!, flows['五月の仕入']!])
        .update({ status: 'in_progress' });
    }
  });

  it('filter[workspaceId] narrows to one workspace', async () => {
    expect(names(await list(a.token, { 'filter[workspaceId]': w2 }))).toEqual(['五月の仕入', '六月の大口']);
  });

  it('created, updated and completed date ranges are inclusive Japan days', async () => {
    // 2026-03-31 15:30 UTC is 2026-04-01 00:30 in Japan.
    await knex()('business_flows')
      .where({ id: flows['四月の売上'] })
      .update({ created_at: new Date('2026-03-31T15:30:00Z'), updated_at: new Date('2026-04-02T03:00:00Z') });
    await knex()('business_flows')
      .where({ id: flows['五月の仕入'] })
      .update({ completed_at: new Date('2026-05-31T14:59:00Z') });
    expect(
      names(await list(a.token, { 'filter[createdFrom]': '2026-04-01', 'filter[createdTo]': '2026-04-01' })),
    ).toEqual(['四月の売上']);
    expect(names(await list(a.token, { 'filter[createdTo]': '2026-03-31' }))).toEqual([]);
    expect(
      names(await list(a.token, { 'filter[updatedFrom]': '2026-04-02', 'filter[updatedTo]': '2026-04-02' })),
    ).toEqual(['四月の売上']);
    expect(
      names(await list(a.token, { 'filter[completedFrom]': '2026-05-31', 'filter[completedTo]': '2026-05-31' })),
    ).toEqual(['五月の仕入']);
  });

  it('rejects a date range whose start is after its end (422 SEARCH_RANGE_INVALID)', async () => {
    const response = await list(a.token, { 'filter[createdFrom]': '2026-05-02', 'filter[createdTo]': '2026-05-01' });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'SEARCH_RANGE_INVALID',
      source: { pointer: '/filter[createdFrom]' },
    });
  });

  it('sorts by name both ways and pages with meta.total', async () => {
    const asc = await list(a.token, { sort: 'name', 'page[size]': '2' });
    expect(asc.body.meta).toEqual({
      total: 4,
      totalCapped: false,
      page: { number: 1, size: 2, next: expect.any(String) },
    });
    const all = await list(a.token, { sort: 'name' });
    const desc = await list(a.token, { sort: '-name' });
    expect(desc.body.data.map((f: any) => f.id)).toEqual([...all.body.data.map((f: any) => f.id)].reverse());
    expect(asc.body.data.map((f: any) => f.id)).toEqual(all.body.data.slice(0, 2).map((f: any) => f.id));
  });
});

describe('searchBusinessFlows by custom properties', () => {
  const where = (...properties: Record<string, unknown>[]) => ({ filter: { properties } });

  it('number range is inclusive and numeric (900 is below 10000)', async () => {
    const response = await search(a.token, where({ propertyId: prop.amount, from: 900, to: '12,000' }));
    expect(names(response)).toEqual(['五月の仕入', '五月の大口', '四月の売上']);
    expect(names(await search(a.token, where({ propertyId: prop.amount, from: '1000' })))).toEqual([
      '五月の仕入',
      '五月の大口',
      '六月の大口',
    ]);
  });

  it('date range is inclusive and accepts yyyy/MM/dd', async () => {
    const response = await search(a.token, where({ propertyId: prop.date, from: '2026/05/01', to: '2026-05-25' }));
    expect(names(response)).toEqual(['五月の仕入', '五月の大口']);
  });

  it('string contains and enum optionIds', async () => {
    expect(names(await search(a.token, where({ propertyId: prop.party, contains: '鈴木' })))).toEqual(['五月の仕入']);
    expect(names(await search(a.token, where({ propertyId: prop.kind, optionIds: [kindOptions[0]!.id] })))).toEqual([
      '五月の大口',
      '四月の売上',
    ]);
  });

  it('ANDs transaction date range, amount range and counterparty (Electronic Book Preservation Act search)', async () => {
    const response = await search(
      a.token,
      where(
        { propertyId: prop.date, from: '2026-05-01', to: '2026-06-30' },
        { propertyId: prop.amount, from: 10000, to: 60000 },
        { propertyId: prop.party, contains: '山田' },
      ),
    );
    expect(response.status).toBe(200);
    expect(names(response)).toEqual(['五月の大口', '六月の大口']);
    expect(response.body.meta.total).toBe(2);
  });

  it('combines property conditions with the plain filters and pages from the body', async () => {
    const response = await search(a.token, {
      filter: { workspaceId: w1, properties: [{ propertyId: prop.party, contains: '山田' }] },
      page: { number: 1, size: 1 },
      sort: 'name',
    });
    expect(response.body.meta).toEqual({
      total: 2,
      totalCapped: false,
      page: { number: 1, size: 1, next: expect.any(String) },
    });
  });

  it('rejects a property range whose from is after its to (422 SEARCH_RANGE_INVALID, pointer into the body)', async () => {
    const response = await search(a.token, where({ propertyId: prop.amount, from: 5000, to: 100 }));
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'SEARCH_RANGE_INVALID',
      source: { pointer: '/filter/properties/0/from' },
    });
  });

  it('rejects an unknown property and a condition that does not fit the type (422 SEARCH_PROPERTY_INVALID)', async () => {
    const response = await search(
      a.token,
      where(
        { propertyId: '00000000-0000-4000-8000-000000000000', contains: 'x' },
        { propertyId: prop.docScope, from: '1' },
        { propertyId: prop.amount, contains: '9' },
        { propertyId: prop.date, from: '2026-02-30' },
      ),
    );
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['SEARCH_PROPERTY_INVALID', '/filter/properties/0/propertyId'],
      ['SEARCH_PROPERTY_INVALID', '/filter/properties/1/from'],
      ['SEARCH_PROPERTY_INVALID', '/filter/properties/2/contains'],
      ['SEARCH_PROPERTY_INVALID', '/filter/properties/3/from'],
    ]);
  });

  it('a document-scope condition finds the flows holding a live document with that value', async () => {
    const flow = { id: flows['六月の大口']!, organizationId: a.organizationId };
    const live = await insertDocument(app, flow, { name: '請負契約書' });
    const cancelled = await insertDocument(
      app,
      { id: flows['四月の売上']!, organizationId: a.organizationId },
      {
        status: 'cancelled',
      },
    );
    const value = (targetId: string) => ({
      organization_id: a.organizationId,
      property_id: prop.docScope,
      target_type: 'document',
      target_id: targetId,
      text_value: '株式会社OCR商事',
    });
    await knex()('property_values').insert([value(live), value(cancelled)]);
    expect(names(await search(a.token, where({ propertyId: prop.docScope, contains: 'OCR商事' })))).toEqual([
      '六月の大口',
    ]);
    expect(names(await search(a.token, where({ propertyId: prop.docScope, contains: '別の会社' })))).toEqual([]);
  });
});

describe('partners', () => {
  it('a partner that is not a public participant lists only flows holding its tasks', async () => {
    expect(names(await list(b.token, {}))).toEqual(['五月の大口']);
    const hidden = await app.api.call('getBusinessFlow', {
      token: b.token,
      params: { businessFlowId: flows['四月の売上']! },
    });
    expect([hidden.status, hidden.body.errors[0].code]).toEqual([404, 'NOT_FOUND']);
  });

  it('a partner may filter by a property public to clients but not by a private one (422 SEARCH_PROPERTY_INVALID)', async () => {
    const allowed = await search(b.token, { filter: { properties: [{ propertyId: prop.party, contains: '山田' }] } });
    expect(names(allowed)).toEqual(['五月の大口']);
    const refused = await search(b.token, {
      filter: { properties: [{ propertyId: prop.kind, optionIds: [kindOptions[0]!.id] }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'SEARCH_PROPERTY_INVALID',
      source: { pointer: '/filter/properties/0/propertyId' },
    });
    expect(JSON.stringify(allowed.body)).not.toContain('区分');
  });

  it('another organization without participation finds nothing', async () => {
    const stranger = await adminSession(app);
    expect((await list(stranger.token, {})).body.meta.total).toBe(0);
  });
});

describe('exportBusinessFlowsCsv', () => {
  it('writes the matching flows as UTF-8 CSV with BOM: fixed columns, one per visible property, formulas defused, logged', async () => {
    const formula = await createFlow(app, a.token, w2, {
      name: '=HYPERLINK("x")',
      properties: [{ propertyId: prop.party, value: '+81 "引用"' }],
    });
    const response = await app.api.call('exportBusinessFlowsCsv', {
      token: a.token,
      body: { filter: { workspaceId: w2 }, sort: 'name' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="business-flows-\d{8}\.csv"$/);
    // fetch's text() drops a BOM: read the raw bytes to see it.
    const raw = await fetch(`${app.url}/core/v1/business-flows/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filter: { workspaceId: w2 } }),
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = (response.body as string).split('\r\n');
    expect(lines[0]).toBe(
      'id,systemLinkId,name,status,workspace,createdAt,updatedAt,completedAt,区分,取引先名,取引日,社内評価,金額',
    );
    expect(lines).toHaveLength(5); // header, three flows, final CRLF
    const june = lines.find((l) => l.startsWith(flows['六月の大口']!))!;
    expect(june).toContain(',SYS-JUNE,六月の大口,in_progress,第二ワークスペース,');
    expect(june.endsWith(',,山田商事,2026-06-01,A,50000')).toBe(true);
    const purchase = lines.find((l) => l.startsWith(flows['五月の仕入']!))!;
    expect(purchase.split(',')[8]).toBe('仕入');
    const defused = lines.find((l) => l.startsWith(formula.id))!;
    expect(defused).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(defused).toContain(`,"'+81 ""引用""",`);
    const log = await knex()('operation_logs')
      .where({ action: 'business_flow.exported', organization_id: a.organizationId })
      .orderBy('id', 'desc')
      .first();
    expect(log.details).toMatchObject({ count: 3 });
  });

  it('a partner’s export carries only properties public to clients', async () => {
    const response = await app.api.call('exportBusinessFlowsCsv', { token: b.token, body: {} });
    const header = (response.body as string).split('\r\n')[0];
    expect(header).toBe('id,systemLinkId,name,status,workspace,createdAt,updatedAt,completedAt,取引先名,取引日,金額');
  });

  it('refuses more than 1,000 matches with 422 CSV_EXPORT_LIMIT_EXCEEDED {max, total}; exactly 1,000 is fine', async () => {
    const org = await adminSession(app);
    const ws = await seedWorkspace(app, org.organizationId, [{ groupId: org.defaultGroupId }]);
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      organization_id: org.organizationId,
      workspace_id: ws,
      name: `大量 ${i}`,
    }));
    await knex().batchInsert('business_flows', rows, 500);
    const refused = await app.api.call('exportBusinessFlowsCsv', { token: org.token, body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: 'CSV_EXPORT_LIMIT_EXCEEDED' });
    expect(refused.body.errors[0].detail).toContain('1001');
    const exact = await app.api.call('exportBusinessFlowsCsv', {
      token: org.token,
      body: { filter: { q: '大量 1000' }, sort: 'name' },
    });
    expect(exact.status).toBe(200);
    await knex()('business_flows').where({ name: '大量 1000', organization_id: org.organizationId }).delete();
    const thousand = await app.api.call('exportBusinessFlowsCsv', { token: org.token, body: {} });
    expect(thousand.status).toBe(200);
    expect((thousand.body as string).split('\r\n')).toHaveLength(1002);
  });
});
