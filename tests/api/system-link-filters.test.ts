/*
 * `filter[systemLinkId]` on every list whose resource carries an ID for system link: an exact match (not the
 * partial, case-insensitive `filter[q]`), nothing when no row has it, and never another organization's row that
 * happens to use the same ID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../../core/contract/api.gen.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { uploadPdf } from '../helpers/documents.ts';
import { type AdminSession, adminSession, createGroup, createUser, NO_TASKS } from '../helpers/org-admin.ts';
import { seedTaskWorld } from '../helpers/tasks.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
let a: AdminSession;
let b: AdminSession;

/** The ID for system link both organizations give one row of every kind. */
const SHARED = 'ERP-0001';

interface Seeded {
  /** The row of A with SHARED and a row of A whose ID merely contains SHARED. */
  aId: string;
  aOtherId: string;
  bId: string;
  /** Path parameters of the list as A and as B. */
  paramsA?: Record<string, string>;
  paramsB?: Record<string, string>;
}

type Maker = (session: AdminSession) => Promise<string>;

/** Creates one row of a kind through the API or the seed helpers and returns its id. */
const MAKERS: Record<string, { table: string; list: keyof operations; make: Maker }> = {
  users: {
    table: 'users',
    list: 'listUsers',
    make: async (s) => (await createUser(app, s.token, [s.defaultGroupId])).id,
  },
  groups: { table: 'groups', list: 'listGroups', make: (s) => createGroup(app, s.token, `G-${Math.random()}`) },
  roles: {
    table: 'roles',
    list: 'listRoles',
    make: async (s) => {
      const body = { data: { type: 'Role', attributes: { name: `R-${Math.random()}`, taskPermissions: NO_TASKS } } };
      return (await created('createRole', s.token, body)).id;
    },
  },
  properties: {
    table: 'custom_properties',
    list: 'listProperties',
    make: async (s) => {
      const body = { data: { type: 'Property', attributes: { name: `P-${Math.random()}`, inputType: 20, scope: 10 } } };
      return (await created('createProperty', s.token, body)).id;
    },
  },
  workspaces: {
    table: 'workspaces',
    list: 'listWorkspaces',
    make: (s) => seedWorkspace(app, s.organizationId, [{ groupId: s.defaultGroupId, isEditable: true }]),
  },
  businessFlows: {
    table: 'business_flows',
    list: 'listBusinessFlows',
    make: async (s) => insertFlow(app, s.organizationId, await workspaceOf(s)),
  },
  documentTemplates: {
    table: 'document_templates',
    list: 'listDocumentTemplates',
    make: async (s) => {
      const body = { data: { type: 'DocumentTemplate', attributes: { name: `D-${Math.random()}` } } };
      return (await created('createDocumentTemplate', s.token, body)).id;
    },
  },
  businessFlowTemplates: {
    table: 'business_flow_templates',
    list: 'listBusinessFlowTemplates',
    make: async (s) => {
      const body = { data: { type: 'BusinessFlowTemplate', attributes: { name: `F-${Math.random()}` } } };
      return (await created('createBusinessFlowTemplate', s.token, body)).id;
    },
  },
};

async function created(operationId: keyof operations, token: string, body: unknown) {
  const response = await app.api.call(operationId, { token, body });
  if (response.status !== 201) throw new Error(`${operationId} failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string };
}

const workspaces = new Map<string, string>();
async function workspaceOf(s: AdminSession) {
  if (!workspaces.has(s.organizationId)) {
    workspaces.set(
      s.organizationId,
      await seedWorkspace(app, s.organizationId, [{ groupId: s.defaultGroupId, isEditable: true }]),
    );
  }
  return workspaces.get(s.organizationId)!;
}

/** Gives a row its ID for system link straight in the database (each create path is tested on its own). */
async function link(table: string, id: string, systemLinkId: string) {
  await app.service.deps.knex(table).where({ id }).update({ system_link_id: systemLinkId });
}

const seeded: Record<string, Seeded> = {};

beforeAll(async () => {
  app = await startApp();
  a = await adminSession(app, { organizationName: '連携元株式会社', plan: 'standard' });
  b = await adminSession(app, { organizationName: '別組織株式会社', plan: 'standard' });
  for (const [kind, { table, make }] of Object.entries(MAKERS)) {
    const [aId, aOtherId, bId] = [await make(a), await make(a), await make(b)];
    await link(table, aId, SHARED);
    await link(table, aOtherId, `${SHARED}-X`);
    await link(table, bId, SHARED);
    seeded[kind] = { aId, aOtherId, bId };
  }
  // Documents are listed per business flow: one flow of each organization, two documents in A's.
  const flowA = await insertFlow(app, a.organizationId, await workspaceOf(a));
  const flowB = await insertFlow(app, b.organizationId, await workspaceOf(b));
  const aId = (await uploadPdf(app, a.token, flowA, { systemLinkId: SHARED })).id;
  const aOtherId = (await uploadPdf(app, a.token, flowA, { systemLinkId: `${SHARED}-X` })).id;
  const bId = (await uploadPdf(app, b.token, flowB, { systemLinkId: SHARED })).id;
  seeded.documents = { aId, aOtherId, bId, paramsA: { businessFlowId: flowA }, paramsB: { businessFlowId: flowB } };
});
afterAll(() => app.close());

const LISTS: [string, keyof operations][] = [
  ...Object.entries(MAKERS).map(([kind, { list }]): [string, keyof operations] => [kind, list]),
  ['documents', 'listBusinessFlowDocuments'],
];

async function ids(
  operationId: keyof operations,
  token: string,
  systemLinkId: string,
  params?: Record<string, string>,
) {
  const response = await app.api.call(operationId, { token, params, query: { 'filter[systemLinkId]': systemLinkId } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { id: string }[]).map((r) => r.id);
}

describe('filter[systemLinkId]', () => {
  it.each(LISTS)('%s: answers exactly the caller’s row with that ID for system link', async (kind, operationId) => {
    const s = seeded[kind]!;
    expect(await ids(operationId, a.token, SHARED, s.paramsA)).toEqual([s.aId]);
    expect(await ids(operationId, a.token, `${SHARED}-X`, s.paramsA)).toEqual([s.aOtherId]);
  });

  it.each(LISTS)(
    '%s: answers an empty list when no row has the ID (no partial or case-blind match)',
    async (kind, op) => {
      const s = seeded[kind]!;
      expect(await ids(op, a.token, 'ERP-000', s.paramsA)).toEqual([]);
      expect(await ids(op, a.token, SHARED.toLowerCase(), s.paramsA)).toEqual([]);
    },
  );

  it.each(LISTS)('%s: never answers another organization’s row with the same ID', async (kind, operationId) => {
    const s = seeded[kind]!;
    const seenByA = await ids(operationId, a.token, SHARED, s.paramsA);
    expect(seenByA).not.toContain(s.bId);
    expect(await ids(operationId, b.token, SHARED, s.paramsB)).toEqual([s.bId]);
  });

  it('searchBusinessFlows takes the same exact match in its body filter', async () => {
    const response = await app.api.call('searchBusinessFlows', {
      token: a.token,
      body: { filter: { systemLinkId: SHARED } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.map((r: { id: string }) => r.id)).toEqual([seeded.businessFlows!.aId]);
  });

  it('refuses an empty filter[systemLinkId] with 422 VALIDATION_FAILED', async () => {
    const response = await app.api.call('listGroups', { token: a.token, query: { 'filter[systemLinkId]': '' } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].code).toBe('VALIDATION_FAILED');
  });
});

describe("filter[systemLinkId] and partners' rows", () => {
  it("matches only the caller's own organization's workspace and flow, though the partner sees them listed", async () => {
    const w = await seedTaskWorld(app);
    const knex = app.service.deps.knex;
    await knex('workspaces').where({ id: w.workspaceId }).update({ system_link_id: 'SHARED-1' });
    await knex('business_flows').where({ id: w.flowId }).update({ system_link_id: 'SHARED-1' });
    const filter = { 'filter[systemLinkId]': 'SHARED-1' };
    const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((row) => row.id);

    const partnerWorkspaces = await app.api.call('listWorkspaces', { token: w.ownerB.token });
    expect(ids(partnerWorkspaces)).toContain(w.workspaceId);
    expect(ids(await app.api.call('listWorkspaces', { token: w.ownerB.token, query: filter }))).toEqual([]);
    expect(ids(await app.api.call('listWorkspaces', { token: w.ownerA.token, query: filter }))).toEqual([
      w.workspaceId,
    ]);

    const partnerFlows = await app.api.call('listBusinessFlows', { token: w.ownerB.token });
    expect(ids(partnerFlows)).toContain(w.flowId);
    expect(ids(await app.api.call('listBusinessFlows', { token: w.ownerB.token, query: filter }))).toEqual([]);
    expect(ids(await app.api.call('listBusinessFlows', { token: w.ownerA.token, query: filter }))).toEqual([w.flowId]);
  });
});
