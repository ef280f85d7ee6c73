import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { activeMember, adminSession, createGroup, createUser, lastLog } from '../helpers/org-admin.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const groupBody = (attributes: Record<string, unknown>) => ({ data: { type: 'Group', attributes } });
const memberBody = (attributes: Record<string, unknown>) => ({ data: { type: 'GroupMember', attributes } });
const addMember = (token: string, groupId: string, userId: string, isGroupAdmin = false) =>
  app.api.call('addGroupMember', { token, params: { groupId }, body: memberBody({ userId, isGroupAdmin }) });
const removeMember = (token: string, groupId: string, userId: string) =>
  app.api.call('removeGroupMember', { token, params: { groupId, userId } });
const setAdmin = (token: string, groupId: string, userId: string, isGroupAdmin: boolean) =>
  app.api.call('updateGroupMember', { token, params: { groupId, userId }, body: memberBody({ isGroupAdmin }) });

describe('groups', () => {
  it('sign-up creates a group named after the organization with the owner as its group administrator', async () => {
    const admin = await adminSession(app, { organizationName: '株式会社グループ' });
    const list = await app.api.call('listGroups', { token: admin.token });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].attributes).toMatchObject({
      name: '株式会社グループ',
      memberCount: 1,
      groupAdminCount: 1,
    });
    expect(list.body.meta.maxGroups).toBe(3);
    const members = await app.api.call('listGroupMembers', {
      token: admin.token,
      params: { groupId: admin.defaultGroupId },
    });
    expect(members.body.data).toEqual([
      expect.objectContaining({ id: admin.ownerId, attributes: expect.objectContaining({ isGroupAdmin: true }) }),
    ]);
  });

  it('tells every user their own groups in GET /me, also when they may not list groups', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const member = await activeMember(app, admin.token, [sales]);
    expect((await app.api.call('listGroups', { token: member.token })).status).toBe(403);
    const me = await app.api.call('getCurrentUser', { token: member.token });
    expect(me.body.data.attributes.groups).toEqual([{ id: sales, name: '営業部', isGroupAdmin: false }]);
  });

  it('creates and renames a group with its lockVersion and logs both', async () => {
    const admin = await adminSession(app);
    const id = await createGroup(app, admin.token, '営業部', 'SALES');
    expect(await lastLog(app, 'group.created', id)).toMatchObject({ actor_user_id: admin.ownerId });
    const renamed = await app.api.call('updateGroup', {
      token: admin.token,
      params: { groupId: id },
      body: groupBody({ lockVersion: 0, name: '営業本部' }),
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.attributes).toMatchObject({ name: '営業本部', systemLinkId: 'SALES', lockVersion: 1 });
    expect((await lastLog(app, 'group.updated', id)).details).toMatchObject({
      before: { name: '営業部' },
      after: { name: '営業本部' },
    });
  });

  it('rejects a stale lockVersion with 409 UPDATED_BY_ANOTHER_USER', async () => {
    const admin = await adminSession(app);
    const id = await createGroup(app, admin.token, '経理部');
    const rename = (name: string) =>
      app.api.call('updateGroup', {
        token: admin.token,
        params: { groupId: id },
        body: groupBody({ lockVersion: 0, name }),
      });
    expect((await rename('A')).status).toBe(200);
    const stale = await rename('B');
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    expect(
      (await app.api.call('getGroup', { token: admin.token, params: { groupId: id } })).body.data.attributes.name,
    ).toBe('A');
  });

  it('rejects a duplicate name with GROUP_NAME_TAKEN and a duplicate ID for system link with SYSTEM_LINK_ID_TAKEN', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, '法務部', 'LEGAL');
    const response = await app.api.call('createGroup', {
      token: admin.token,
      body: groupBody({ name: '法務部', systemLinkId: 'LEGAL' }),
    });
    expect(response.status).toBe(422);
    expect(
      response.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer]),
    ).toEqual([
      ['GROUP_NAME_TAKEN', '/data/attributes/name'],
      ['SYSTEM_LINK_ID_TAKEN', '/data/attributes/systemLinkId'],
    ]);
  });

  it('limits the number of groups by plan (422 GROUP_LIMIT: free 3, standard 100)', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, 'B');
    await createGroup(app, admin.token, 'C');
    const refused = await app.api.call('createGroup', { token: admin.token, body: groupBody({ name: 'D' }) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'GROUP_LIMIT',
      meta: { messages: { en: 'Your plan allows at most 3 groups.' } },
    });
    expect(await knex()('groups').where({ organization_id: admin.organizationId }).count({ n: '*' })).toEqual([
      { n: 3 },
    ]);
    await knex()('organizations').where({ id: admin.organizationId }).update({ plan: 'standard' });
    expect((await app.api.call('createGroup', { token: admin.token, body: groupBody({ name: 'D' }) })).status).toBe(
      201,
    );
  });

  it('searches, sorts and pages groups', async () => {
    const admin = await adminSession(app, { organizationName: 'Zeta' });
    const alpha = await createGroup(app, admin.token, 'Alpha', 'A-1');
    const beta = await createGroup(app, admin.token, 'Beta');
    await createUser(app, admin.token, [beta]);
    await createUser(app, admin.token, [beta]);
    const list = (query: Record<string, string | number>) => app.api.call('listGroups', { token: admin.token, query });
    const names = (r: { body: { data: { attributes: { name: string } }[] } }) =>
      r.body.data.map((g) => g.attributes.name);
    expect(names(await list({ 'filter[q]': 'a-1' }))).toEqual(['Alpha']);
    expect(names(await list({ sort: '-name' }))).toEqual(['Zeta', 'Beta', 'Alpha']);
    expect(names(await list({ sort: '-memberCount', 'page[size]': 1 }))).toEqual(['Beta']);
    expect((await list({ 'page[size]': 2, 'page[number]': 2 })).body.meta).toMatchObject({
      total: 3,
      page: { number: 2, size: 2 },
    });
    expect(alpha).toBeTruthy();
  });
});

describe('members', () => {
  it('adds, lists and searches members and refuses a second membership with 409 ALREADY_GROUP_MEMBER', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const user = await createUser(app, admin.token, [admin.defaultGroupId], { name: 'Searchable Person' });
    const added = await addMember(admin.token, sales, user.id);
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ id: user.id, attributes: { isGroupAdmin: false } });
    expect(await lastLog(app, 'group.member_added', sales)).toMatchObject({ details: { userId: user.id } });
    const again = await addMember(admin.token, sales, user.id);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('ALREADY_GROUP_MEMBER');
    const found = await app.api.call('listGroupMembers', {
      token: admin.token,
      params: { groupId: sales },
      query: { 'filter[q]': 'searchable' },
    });
    expect(found.body.data.map((m: { id: string }) => m.id)).toEqual([user.id]);
  });

  it('refuses to remove a group administrator until the right is removed (422 GROUP_ADMIN_CANNOT_BE_REMOVED)', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    await addMember(admin.token, sales, user.id, true);
    const refused = await removeMember(admin.token, sales, user.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('GROUP_ADMIN_CANNOT_BE_REMOVED');
    expect((await setAdmin(admin.token, sales, user.id, false)).body.data.attributes.isGroupAdmin).toBe(false);
    expect((await removeMember(admin.token, sales, user.id)).status).toBe(204);
    expect(await lastLog(app, 'group.member_removed', sales)).toBeTruthy();
  });

  it('refuses to remove a user from their only group (422 USER_LAST_GROUP)', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const refused = await removeMember(admin.token, admin.defaultGroupId, user.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('USER_LAST_GROUP');
    expect(await knex()('group_members').where({ user_id: user.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('lets a group administrator manage the members of their own group only, and not the admin right', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const lead = await activeMember(app, admin.token, [sales]);
    await setAdmin(admin.token, sales, lead.id, true);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    expect((await addMember(lead.token, sales, user.id)).status).toBe(201);
    expect((await removeMember(lead.token, sales, user.id)).status).toBe(204);
    expect((await addMember(lead.token, sales, user.id, true)).status).toBe(403);
    expect((await addMember(lead.token, admin.defaultGroupId, lead.id)).status).toBe(403);
    expect((await setAdmin(lead.token, sales, lead.id, false)).status).toBe(403);
    expect((await app.api.call('createGroup', { token: lead.token, body: groupBody({ name: 'x' }) })).status).toBe(403);
  });
});

describe('deleting groups', () => {
  it('refuses to delete a group that would leave a user without a group (409 GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP)', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const user = await createUser(app, admin.token, [sales]);
    const refused = await app.api.call('deleteGroup', { token: admin.token, params: { groupId: sales } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP');
    await addMember(admin.token, admin.defaultGroupId, user.id);
    expect((await app.api.call('deleteGroup', { token: admin.token, params: { groupId: sales } })).status).toBe(204);
    expect(await knex()('groups').where({ id: sales }).first()).toBeUndefined();
    expect(await lastLog(app, 'group.deleted', sales)).toMatchObject({ details: { name: '営業部' } });
  });

  it('refuses to delete a group that takes part in a workspace (409 GROUP_IN_USE)', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const [workspace] = await knex()('workspaces')
      .insert({ organization_id: admin.organizationId, name: '取引先A' })
      .returning('id');
    await knex()('workspace_participants').insert({
      organization_id: admin.organizationId,
      workspace_id: workspace.id,
      kind: 'group',
      group_id: sales,
    });
    const refused = await app.api.call('deleteGroup', { token: admin.token, params: { groupId: sales } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('GROUP_IN_USE');
    expect(await knex()('groups').where({ id: sales }).first('id')).toBeTruthy();
  });
});

describe('isolation', () => {
  it('answers 404 for every group operation with an id of another organization and changes nothing', async () => {
    const admin = await adminSession(app);
    const other = await adminSession(app);
    const groupId = other.defaultGroupId;
    const userId = other.ownerId;
    const calls = [
      app.api.call('getGroup', { token: admin.token, params: { groupId } }),
      app.api.call('updateGroup', {
        token: admin.token,
        params: { groupId },
        body: groupBody({ lockVersion: 0, name: 'x' }),
      }),
      app.api.call('deleteGroup', { token: admin.token, params: { groupId } }),
      app.api.call('listGroupMembers', { token: admin.token, params: { groupId } }),
      addMember(admin.token, groupId, admin.ownerId),
      setAdmin(admin.token, groupId, userId, false),
      removeMember(admin.token, groupId, userId),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(response.body.errors[0].code).toBe('NOT_FOUND');
    }
    const foreignUser = await addMember(admin.token, admin.defaultGroupId, userId);
    expect(foreignUser.status).toBe(422);
    expect(foreignUser.body.errors[0].code).toBe('REFERENCE_NOT_FOUND');
    const after = await app.api.call('getGroup', { token: other.token, params: { groupId } });
    expect(after.body.data.attributes).toMatchObject({ lockVersion: 0, memberCount: 1, groupAdminCount: 1 });
  });
});
