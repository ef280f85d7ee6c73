import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { insertDocument, insertFlow } from '../helpers/business-flows.ts';
import { type AdminSession, adminSession, createGroup, lastLog } from '../helpers/org-admin.ts';
import { corporateNumber, createWorkspace, participantBody, workspaceBody } from '../helpers/workspaces.ts';

let app: TestApp;
/** Owner organization A and partner organization B (both with corporate numbers). */
let a: AdminSession & { corporateNumber: string };
let b: AdminSession & { corporateNumber: string };

async function organization(name: string) {
  const number = corporateNumber();
  return { ...(await adminSession(app, { organizationName: name, corporateNumber: number })), corporateNumber: number };
}

beforeAll(async () => {
  app = await startApp();
  a = await organization('株式会社オーナー');
  b = await organization('株式会社パートナー');
  // Professional plan: these tests need more groups than the free plan allows.
  await app.service.deps.knex('organizations').where({ id: a.organizationId }).update({ plan: 'professional' });
});
afterAll(() => app.close());

const get = (token: string, workspaceId: string) => app.api.call('getWorkspace', { token, params: { workspaceId } });
const update = (token: string, workspaceId: string, attributes: Record<string, unknown>) =>
  app.api.call('updateWorkspace', { token, params: { workspaceId }, body: workspaceBody(attributes) });
const list = (token: string, query: Record<string, string> = {}) =>
  app.api.call('listWorkspaces', { token, query: { 'page[size]': 100, ...query } });
const listedIds = async (token: string, query: Record<string, string> = {}) =>
  (await list(token, query)).body.data.map((w: { id: string }) => w.id);
const ownGroup = (groupId: string, extra: Record<string, unknown> = {}) => ({
  kind: 'group' as const,
  groupId,
  ...extra,
});
const errorOf = (response: { status: number; body: any }) => [response.status, response.body?.errors?.[0]?.code];

describe('creating workspaces', () => {
  it('creates a workspace with an own group and a partner found by corporate number, logged, notification on', async () => {
    const workspace = await createWorkspace(
      app,
      a.token,
      [ownGroup(a.defaultGroupId), { kind: 'organization', corporateNumber: b.corporateNumber, isPublic: false }],
      { systemLinkId: 'ws-create-1', description: '説明' },
    );
    const detail = await get(a.token, workspace.id);
    expect(detail.status).toBe(200);
    expect(detail.body.data.attributes).toMatchObject({
      name: '取引ワークスペース',
      systemLinkId: 'ws-create-1',
      description: '説明',
      mailNotification: true,
      ownerOrganization: { id: a.organizationId, name: '株式会社オーナー' },
      isOwnerOrganization: true,
      canEdit: true,
      canManage: true,
      canSeeAllFlows: true,
      businessFlowCounts: { total: 0 },
      lockVersion: 0,
    });
    const participants = detail.body.data.attributes.participants.map((p: any) => p.attributes);
    expect(participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'group', groupId: a.defaultGroupId, groupName: '株式会社オーナー' }),
        expect.objectContaining({
          kind: 'organization',
          organizationId: b.organizationId,
          organizationName: '株式会社パートナー',
          corporateNumber: b.corporateNumber,
          isPublic: false,
          isEditable: false,
        }),
      ]),
    );
    expect(await lastLog(app, 'workspace.created', workspace.id)).toMatchObject({ actor_user_id: a.ownerId });
  });

  it('rejects an ID for system link already used in the organization (422 SYSTEM_LINK_ID_TAKEN)', async () => {
    await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)], { systemLinkId: 'ws-dup' });
    const again = await app.api.call('createWorkspace', {
      token: a.token,
      body: workspaceBody({ name: '二つ目', systemLinkId: 'ws-dup', participants: [ownGroup(a.defaultGroupId)] }),
    });
    expect(errorOf(again)).toEqual([422, 'SYSTEM_LINK_ID_TAKEN']);
    expect(again.body.errors[0].source.pointer).toBe('/data/attributes/systemLinkId');
    // Another organization may use the same one.
    await createWorkspace(app, b.token, [ownGroup(b.defaultGroupId)], { systemLinkId: 'ws-dup' });
  });

  it('rejects a workspace without an own group, even from an administrator (422 WORKSPACE_PARTICIPANT_REQUIRED)', async () => {
    const none = await app.api.call('createWorkspace', { token: a.token, body: workspaceBody({ name: '無所属' }) });
    expect(errorOf(none)).toEqual([422, 'WORKSPACE_PARTICIPANT_REQUIRED']);
    const partnerOnly = await app.api.call('createWorkspace', {
      token: a.token,
      body: workspaceBody({
        name: '取引先だけ',
        participants: [{ kind: 'organization', organizationId: b.organizationId }],
      }),
    });
    expect(errorOf(partnerOnly)).toEqual([422, 'WORKSPACE_PARTICIPANT_REQUIRED']);
  });

  it('a user who is not an administrator must include a group they are a member of (422 WORKSPACE_PARTICIPANT_REQUIRED)', async () => {
    const sales = await createGroup(app, a.token, '営業部-作成');
    const legal = await createGroup(app, a.token, '法務部-作成');
    const member = await userIn(app, a.organizationId, [sales]);
    const foreignGroup = await app.api.call('createWorkspace', {
      token: member.token,
      body: workspaceBody({ name: '他部署', participants: [ownGroup(legal)] }),
    });
    expect(errorOf(foreignGroup)).toEqual([422, 'WORKSPACE_PARTICIPANT_REQUIRED']);
    const own = await createWorkspace(app, member.token, [ownGroup(sales), ownGroup(legal)]);
    expect(own.attributes).toMatchObject({ canManage: false, isOwnerOrganization: true });
  });

  it('rejects another organization’s group as a participant (422 REFERENCE_NOT_FOUND)', async () => {
    const response = await app.api.call('createWorkspace', {
      token: a.token,
      body: workspaceBody({ name: '越境', participants: [ownGroup(a.defaultGroupId), ownGroup(b.defaultGroupId)] }),
    });
    expect(errorOf(response)).toEqual([422, 'REFERENCE_NOT_FOUND']);
    expect(response.body.errors[0].source.pointer).toBe('/data/attributes/participants/1/groupId');
  });

  it('rejects an unregistered partner (422 PARTNER_ORGANIZATION_NOT_FOUND) and the own organization (422 PARTNER_IS_OWN_ORGANIZATION)', async () => {
    const unknown = await app.api.call('createWorkspace', {
      token: a.token,
      body: workspaceBody({
        name: '未登録',
        participants: [ownGroup(a.defaultGroupId), { kind: 'organization', corporateNumber: corporateNumber() }],
      }),
    });
    expect(errorOf(unknown)).toEqual([422, 'PARTNER_ORGANIZATION_NOT_FOUND']);
    const self = await app.api.call('createWorkspace', {
      token: a.token,
      body: workspaceBody({
        name: '自社',
        participants: [ownGroup(a.defaultGroupId), { kind: 'organization', organizationId: a.organizationId }],
      }),
    });
    expect(errorOf(self)).toEqual([422, 'PARTNER_IS_OWN_ORGANIZATION']);
    expect(await app.service.deps.knex('workspaces').whereIn('name', ['未登録', '自社']).first()).toBeUndefined();
  });

  it('rejects the same participant twice (409 WORKSPACE_PARTICIPANT_DUPLICATE)', async () => {
    const twice = await app.api.call('createWorkspace', {
      token: a.token,
      body: workspaceBody({
        name: '重複',
        participants: [
          ownGroup(a.defaultGroupId),
          { kind: 'organization', organizationId: b.organizationId },
          { kind: 'organization', corporateNumber: b.corporateNumber },
        ],
      }),
    });
    expect(errorOf(twice)).toEqual([409, 'WORKSPACE_PARTICIPANT_DUPLICATE']);
    const workspace = await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)]);
    const again = await app.api.call('addWorkspaceParticipant', {
      token: a.token,
      params: { workspaceId: workspace.id },
      body: participantBody({ kind: 'group', groupId: a.defaultGroupId, lockVersion: 0 }),
    });
    expect(errorOf(again)).toEqual([409, 'WORKSPACE_PARTICIPANT_DUPLICATE']);
  });
});

describe('who sees a workspace', () => {
  let sales: string;
  let legal: string;
  let salesMember: { id: string; token: string };
  let legalMember: { id: string; token: string };
  let shared: string;
  let unshared: string;
  let bOwn: string;

  beforeAll(async () => {
    sales = await createGroup(app, a.token, '営業部-閲覧');
    legal = await createGroup(app, a.token, '法務部-閲覧');
    salesMember = await userIn(app, a.organizationId, [sales]);
    legalMember = await userIn(app, a.organizationId, [legal]);
    shared = (
      await createWorkspace(app, a.token, [ownGroup(sales), { kind: 'organization', organizationId: b.organizationId }])
    ).id;
    unshared = (await createWorkspace(app, a.token, [ownGroup(sales)])).id;
    // B's own workspace, where A takes no part.
    bOwn = (await createWorkspace(app, b.token, [ownGroup(b.defaultGroupId)])).id;
  });

  it('an administrator of the owner organization sees every workspace of the organization', async () => {
    expect((await get(a.token, unshared)).status).toBe(200);
    expect(await listedIds(a.token)).toEqual(expect.arrayContaining([shared, unshared]));
  });

  it('a member of a participating group sees the workspace but may not manage it', async () => {
    const detail = await get(salesMember.token, shared);
    expect(detail.status).toBe(200);
    expect(detail.body.data.attributes).toMatchObject({ canManage: false, canEdit: false, canSeeAllFlows: true });
    expect(await listedIds(salesMember.token)).toEqual(expect.arrayContaining([shared, unshared]));
  });

  it('a user of the owner organization outside every participating group gets 404 NOT_FOUND and no list entry', async () => {
    expect(errorOf(await get(legalMember.token, shared))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await update(legalMember.token, shared, { lockVersion: 0, name: 'x' }))).toEqual([404, 'NOT_FOUND']);
    const ids = await listedIds(legalMember.token);
    expect(ids).not.toContain(shared);
    expect(ids).not.toContain(unshared);
  });

  it('a partner organization’s user sees the shared workspace, only its own participation, and nothing to manage', async () => {
    const partnerUser = await userIn(app, b.organizationId, [b.defaultGroupId]);
    const detail = await get(partnerUser.token, shared);
    expect(detail.status).toBe(200);
    expect(detail.body.data.attributes).toMatchObject({
      isOwnerOrganization: false,
      canManage: false,
      ownerOrganization: { id: a.organizationId },
    });
    expect(detail.body.data.attributes.participants.map((p: any) => p.attributes.kind)).toEqual(['organization']);
    expect(JSON.stringify(detail.body)).not.toContain('営業部-閲覧');
    const partnerList = (await list(partnerUser.token, { 'filter[relation]': 'partner' })).body.data;
    expect(partnerList.map((w: { id: string }) => w.id)).toContain(shared);
    expect(partnerList.every((w: any) => w.attributes.ownerOrganization.id === a.organizationId)).toBe(true);
    expect(partnerList.map((w: { id: string }) => w.id)).not.toContain(unshared);
  });

  it('a partner does not see the owner’s workspaces it was not added to (404 NOT_FOUND)', async () => {
    expect(errorOf(await get(b.token, unshared))).toEqual([404, 'NOT_FOUND']);
    expect(await listedIds(b.token)).not.toContain(unshared);
  });

  it('the owner organization does not see the partner’s own workspaces where it is not a participant', async () => {
    expect(errorOf(await get(a.token, bOwn))).toEqual([404, 'NOT_FOUND']);
    expect(await listedIds(a.token)).not.toContain(bOwn);
    expect(await listedIds(b.token, { 'filter[relation]': 'own' })).toContain(bOwn);
  });

  it('a partner that can see the workspace gets 403 WORKSPACE_EDIT_NOT_ALLOWED on update and participant changes', async () => {
    expect(errorOf(await update(b.token, shared, { lockVersion: 0, name: '乗っ取り' }))).toEqual([
      403,
      'WORKSPACE_EDIT_NOT_ALLOWED',
    ]);
    const add = await app.api.call('addWorkspaceParticipant', {
      token: b.token,
      params: { workspaceId: shared },
      body: participantBody({ kind: 'group', groupId: b.defaultGroupId, lockVersion: 0 }),
    });
    expect(errorOf(add)).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
    expect(errorOf(await app.api.call('deleteWorkspace', { token: b.token, params: { workspaceId: shared } }))).toEqual(
      [403, 'WORKSPACE_EDIT_NOT_ALLOWED'],
    );
  });

  it('searches by name and ID for system link and counts only the flows the caller can see', async () => {
    const named = await createWorkspace(
      app,
      a.token,
      [ownGroup(sales), { kind: 'organization', organizationId: b.organizationId, isPublic: false }],
      {
        name: '検索用ワークスペース',
        systemLinkId: 'find-me-42',
      },
    );
    const withTask = await insertFlow(app, a.organizationId, named.id);
    await insertDocument(
      app,
      { id: withTask, organizationId: a.organizationId },
      { tasks: [{ partnerOrganizationId: b.organizationId }] },
    );
    await insertFlow(app, a.organizationId, named.id, { status: 'cancelled' });
    expect(await listedIds(a.token, { 'filter[q]': '検索用' })).toEqual([named.id]);
    expect(await listedIds(a.token, { 'filter[q]': 'FIND-ME' })).toEqual([named.id]);
    const mine = (await list(a.token, { 'filter[q]': 'find-me' })).body.data[0].attributes;
    expect(mine.businessFlowCounts).toEqual({ total: 2, inProgress: 1, complete: 0, incomplete: 0, cancelled: 1 });
    const partners = (await list(b.token, { 'filter[q]': 'find-me' })).body.data[0].attributes;
    expect(partners).toMatchObject({ canSeeAllFlows: false, isOwnerOrganization: false });
    expect(partners.businessFlowCounts).toEqual({ total: 1, inProgress: 1, complete: 0, incomplete: 0, cancelled: 0 });
  });
});

describe('changing workspaces', () => {
  it('a member of a non-editable participating group gets 403 WORKSPACE_EDIT_NOT_ALLOWED; an editable one may update', async () => {
    const viewers = await createGroup(app, a.token, '閲覧のみ');
    const editors = await createGroup(app, a.token, '編集可');
    const viewer = await userIn(app, a.organizationId, [viewers]);
    const editor = await userIn(app, a.organizationId, [editors]);
    const workspace = await createWorkspace(app, a.token, [ownGroup(viewers), ownGroup(editors, { isEditable: true })]);
    expect(errorOf(await update(viewer.token, workspace.id, { lockVersion: 0, name: '変更' }))).toEqual([
      403,
      'WORKSPACE_EDIT_NOT_ALLOWED',
    ]);
    const changed = await update(editor.token, workspace.id, { lockVersion: 0, name: '変更', mailNotification: false });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({
      name: '変更',
      mailNotification: false,
      lockVersion: 1,
      canManage: true,
    });
    expect((await lastLog(app, 'workspace.updated', workspace.id)).details).toMatchObject({
      before: { name: '取引ワークスペース', mailNotification: true },
      after: { name: '変更', mailNotification: false },
    });
  });

  it('of two concurrent updates with the same lockVersion exactly one wins; the other gets 409 UPDATED_BY_ANOTHER_USER', async () => {
    const workspace = await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)]);
    const results = await Promise.all([
      update(a.token, workspace.id, { lockVersion: 0, name: '一番' }),
      update(a.token, workspace.id, { lockVersion: 0, name: '二番' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    const winner = results.find((r) => r.status === 200)!;
    const now = await get(a.token, workspace.id);
    expect(now.body.data.attributes).toMatchObject({ name: winner.body.data.attributes.name, lockVersion: 1 });
  });

  it('participant changes need the workspace’s current lockVersion and bump it (stale: 409 UPDATED_BY_ANOTHER_USER)', async () => {
    const workspace = await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)]);
    const added = await app.api.call('addWorkspaceParticipant', {
      token: a.token,
      params: { workspaceId: workspace.id },
      body: participantBody({ kind: 'organization', corporateNumber: b.corporateNumber, lockVersion: 0 }),
    });
    expect(added.status).toBe(201);
    expect(added.body.data.attributes.lockVersion).toBe(1);
    const partner = added.body.data.attributes.participants.find((p: any) => p.attributes.kind === 'organization');
    // A partner is not public unless asked: it sees only the flows it has tasks in.
    expect(partner.attributes).toMatchObject({ organizationId: b.organizationId, isPublic: false, isEditable: false });
    const stale = await app.api.call('updateWorkspaceParticipant', {
      token: a.token,
      params: { workspaceId: workspace.id, participantId: partner.id },
      body: participantBody({ lockVersion: 0, isEditable: true }),
    });
    expect(errorOf(stale)).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);
    const flagged = await app.api.call('updateWorkspaceParticipant', {
      token: a.token,
      params: { workspaceId: workspace.id, participantId: partner.id },
      body: participantBody({ lockVersion: 1, isEditable: true, isPublic: true }),
    });
    expect(flagged.status).toBe(200);
    expect(flagged.body.data.attributes.lockVersion).toBe(2);
    expect((await lastLog(app, 'workspace.participant_updated', workspace.id)).details).toMatchObject({
      before: { isEditable: false, isPublic: false },
      after: { isEditable: true, isPublic: true },
    });
    const removed = await app.api.call('removeWorkspaceParticipant', {
      token: a.token,
      params: { workspaceId: workspace.id, participantId: partner.id },
      query: { lockVersion: 2 },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data.attributes.participants).toHaveLength(1);
    expect(await lastLog(app, 'workspace.participant_removed', workspace.id)).toBeTruthy();
    expect(errorOf(await get(b.token, workspace.id))).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses to remove a participant while a document that is not cancelled has its task (409 WORKSPACE_PARTICIPANT_IN_USE)', async () => {
    const workspace = await createWorkspace(app, a.token, [
      ownGroup(a.defaultGroupId),
      { kind: 'organization', organizationId: b.organizationId },
    ]);
    const partner = (await get(a.token, workspace.id)).body.data.attributes.participants.find(
      (p: any) => p.attributes.kind === 'organization',
    );
    const flow = await insertFlow(app, a.organizationId, workspace.id);
    const documentId = await insertDocument(
      app,
      { id: flow, organizationId: a.organizationId },
      { tasks: [{ partnerOrganizationId: b.organizationId }] },
    );
    const remove = () =>
      app.api.call('removeWorkspaceParticipant', {
        token: a.token,
        params: { workspaceId: workspace.id, participantId: partner.id },
        query: { lockVersion: 0 },
      });
    expect(errorOf(await remove())).toEqual([409, 'WORKSPACE_PARTICIPANT_IN_USE']);
    await app.service.deps.knex('documents').where({ id: documentId }).update({ status: 'cancelled' });
    expect((await remove()).status).toBe(200);
  });

  it('refuses to remove the last own group (422 WORKSPACE_PARTICIPANT_REQUIRED)', async () => {
    const workspace = await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)]);
    const only = (await get(a.token, workspace.id)).body.data.attributes.participants[0];
    const response = await app.api.call('removeWorkspaceParticipant', {
      token: a.token,
      params: { workspaceId: workspace.id, participantId: only.id },
      query: { lockVersion: 0 },
    });
    expect(errorOf(response)).toEqual([422, 'WORKSPACE_PARTICIPANT_REQUIRED']);
  });

  it('refuses to delete a workspace with business flows, cancelled ones included (409 WORKSPACE_HAS_BUSINESS_FLOWS)', async () => {
    const workspace = await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)]);
    await insertFlow(app, a.organizationId, workspace.id, { status: 'cancelled' });
    const response = await app.api.call('deleteWorkspace', { token: a.token, params: { workspaceId: workspace.id } });
    expect(errorOf(response)).toEqual([409, 'WORKSPACE_HAS_BUSINESS_FLOWS']);
    expect((await get(a.token, workspace.id)).status).toBe(200);
  });

  it('deletes a workspace without business flows, with its participants, and logs it', async () => {
    const workspace = await createWorkspace(app, a.token, [ownGroup(a.defaultGroupId)], { name: '消すもの' });
    const response = await app.api.call('deleteWorkspace', { token: a.token, params: { workspaceId: workspace.id } });
    expect(response.status).toBe(204);
    expect(errorOf(await get(a.token, workspace.id))).toEqual([404, 'NOT_FOUND']);
    expect(
      await app.service.deps.knex('workspace_participants').where({ workspace_id: workspace.id }).first(),
    ).toBeUndefined();
    expect((await lastLog(app, 'workspace.deleted', workspace.id)).details).toMatchObject({ name: '消すもの' });
  });

  it('refuses to delete a group that takes part in a workspace (409 GROUP_IN_USE)', async () => {
    const group = await createGroup(app, a.token, '参加中の部署');
    await createWorkspace(app, a.token, [ownGroup(group)]);
    const response = await app.api.call('deleteGroup', { token: a.token, params: { groupId: group } });
    expect(errorOf(response)).toEqual([409, 'GROUP_IN_USE']);
  });
});

describe('partner organization lookup', () => {
  it('finds exactly the registered organization with that corporate number', async () => {
    const found = await app.api.call('findPartnerOrganization', {
      token: a.token,
      query: { 'filter[corporateNumber]': b.corporateNumber },
    });
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual({
      type: 'PartnerOrganization',
      id: b.organizationId,
      attributes: { name: '株式会社パートナー', corporateNumber: b.corporateNumber },
    });
  });

  it('answers 404 NOT_FOUND for an unregistered number and 422 for anything but 13 digits', async () => {
    const missing = await app.api.call('findPartnerOrganization', {
      token: a.token,
      query: { 'filter[corporateNumber]': corporateNumber() },
    });
    expect(errorOf(missing)).toEqual([404, 'NOT_FOUND']);
    const malformed = await app.api.call('findPartnerOrganization', {
      token: a.token,
      query: { 'filter[corporateNumber]': '123' },
    });
    expect(malformed.status).toBe(422);
    const absent = await app.api.call('findPartnerOrganization', { token: a.token });
    expect(absent.status).toBe(422);
  });
});
