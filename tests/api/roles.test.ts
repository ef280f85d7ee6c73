import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertRoleCanPerform, roleCanPerform } from '../../core/modules/roles/service.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { activeMember, adminSession, createUser, lastLog, NO_TASKS } from '../helpers/org-admin.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const roleBody = (attributes: Record<string, unknown>) => ({ data: { type: 'Role', attributes } });
const SIGNER = { ...NO_TASKS, sign: { execute: true, view: false } };

async function createRole(token: string, name: string, extra: Record<string, unknown> = {}) {
  const response = await app.api.call('createRole', {
    token,
    body: roleBody({ name, taskPermissions: NO_TASKS, ...extra }),
  });
  if (response.status !== 201) throw new Error(`createRole failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

describe('roles', () => {
  it('creates a role whose execute permission implies view, and logs role.created', async () => {
    const admin = await adminSession(app);
    const role = await createRole(admin.token, '署名者', { taskPermissions: SIGNER, systemLinkId: 'SIGNER' });
    expect(role.attributes).toMatchObject({
      name: '署名者',
      systemLinkId: 'SIGNER',
      userCount: 0,
      lockVersion: 0,
      taskPermissions: { ...NO_TASKS, sign: { execute: true, view: true } },
    });
    expect(await lastLog(app, 'role.created', role.id)).toMatchObject({ actor_user_id: admin.ownerId });
  });

  it('updates a role with its lockVersion and rejects a stale one with 409 UPDATED_BY_ANOTHER_USER', async () => {
    const admin = await adminSession(app);
    const role = await createRole(admin.token, '閲覧者');
    const update = (name: string) =>
      app.api.call('updateRole', {
        token: admin.token,
        params: { roleId: role.id },
        body: roleBody({ lockVersion: 0, name }),
      });
    const first = await update('閲覧担当');
    expect(first.body.data.attributes).toMatchObject({ name: '閲覧担当', lockVersion: 1 });
    expect((await lastLog(app, 'role.updated', role.id)).details.before.name).toBe('閲覧者');
    const stale = await update('other');
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
  });

  it('rejects a duplicate name with ROLE_NAME_TAKEN and a duplicate ID for system link with SYSTEM_LINK_ID_TAKEN', async () => {
    const admin = await adminSession(app);
    await createRole(admin.token, '承認者', { systemLinkId: 'APPROVER' });
    const response = await app.api.call('createRole', {
      token: admin.token,
      body: roleBody({ name: '承認者', systemLinkId: 'APPROVER', taskPermissions: NO_TASKS }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { code: string }) => e.code)).toEqual([
      'ROLE_NAME_TAKEN',
      'SYSTEM_LINK_ID_TAKEN',
    ]);
  });

  it('allows at most 50 roles per organization (422 ROLE_LIMIT)', async () => {
    const admin = await adminSession(app);
    await knex()('roles').insert(
      Array.from({ length: 50 }, (_, i) => ({
        organization_id: admin.organizationId,
        name: `role-${i}`,
        task_permissions: JSON.stringify(NO_TASKS),
      })),
    );
    const response = await app.api.call('createRole', {
      token: admin.token,
      body: roleBody({ name: 'one more', taskPermissions: NO_TASKS }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'ROLE_LIMIT',
      meta: { messages: { en: 'You can register at most 50 roles.' } },
    });
    expect(await knex()('roles').where({ organization_id: admin.organizationId }).count({ n: '*' })).toEqual([
      { n: 50 },
    ]);
  });

  it('refuses to delete a role that users hold (409 ROLE_IN_USE), then deletes it once unassigned', async () => {
    const admin = await adminSession(app);
    const role = await createRole(admin.token, '担当者');
    const user = await createUser(app, admin.token, [admin.defaultGroupId], { roleIds: [role.id] });
    const refused = await app.api.call('deleteRole', { token: admin.token, params: { roleId: role.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('ROLE_IN_USE');
    await app.api.call('updateUser', {
      token: admin.token,
      params: { userId: user.id },
      body: { data: { type: 'User', attributes: { lockVersion: user.attributes.lockVersion, roleIds: [] } } },
    });
    expect((await app.api.call('deleteRole', { token: admin.token, params: { roleId: role.id } })).status).toBe(204);
    expect(await lastLog(app, 'role.deleted', role.id)).toBeTruthy();
  });

  it('lets only administrators manage roles; members may read them', async () => {
    const admin = await adminSession(app);
    const role = await createRole(admin.token, 'r');
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    const create = await app.api.call('createRole', {
      token: member.token,
      body: roleBody({ name: 'x', taskPermissions: NO_TASKS }),
    });
    expect(create.status).toBe(403);
    expect(create.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    expect((await app.api.call('deleteRole', { token: member.token, params: { roleId: role.id } })).status).toBe(403);
    expect((await app.api.call('listRoles', { token: member.token })).body.data).toHaveLength(1);
  });

  it('searches, sorts and pages roles', async () => {
    const admin = await adminSession(app);
    await createRole(admin.token, 'Alpha', { systemLinkId: 'X-1' });
    await createRole(admin.token, 'Beta');
    await createRole(admin.token, 'Gamma');
    const list = (query: Record<string, string | number>) => app.api.call('listRoles', { token: admin.token, query });
    const names = (r: { body: { data: { attributes: { name: string } }[] } }) =>
      r.body.data.map((g) => g.attributes.name);
    expect(names(await list({ 'filter[q]': 'x-1' }))).toEqual(['Alpha']);
    const page = await list({ sort: '-name', 'page[size]': 2 });
    expect(names(page)).toEqual(['Gamma', 'Beta']);
    expect(page.body.meta).toEqual({ total: 3, page: { number: 1, size: 2 }, maxRoles: 50 });
  });

  it('rejects a role that cannot perform a task when a task is assigned (ROLE_CANNOT_PERFORM_TASK)', async () => {
    const admin = await adminSession(app);
    const other = await adminSession(app);
    const signer = await createRole(admin.token, 'signer', { taskPermissions: SIGNER });
    const foreign = await createRole(other.token, 'signer', { taskPermissions: SIGNER });
    expect(await roleCanPerform(knex(), admin.organizationId, signer.id, 'sign')).toBe(true);
    expect(await roleCanPerform(knex(), admin.organizationId, signer.id, 'sign', 'view')).toBe(true);
    expect(await roleCanPerform(knex(), admin.organizationId, signer.id, 'approve')).toBe(false);
    expect(await roleCanPerform(knex(), admin.organizationId, foreign.id, 'sign')).toBe(false);
    await expect(
      assertRoleCanPerform(knex(), admin.organizationId, signer.id, 'approve', '/data/attributes/roleId'),
    ).rejects.toMatchObject({
      code: 'ROLE_CANNOT_PERFORM_TASK',
      status: 422,
      fields: [{ pointer: '/data/attributes/roleId' }],
    });
  });

  it('answers 404 for every role operation with an id of another organization and changes nothing', async () => {
    const admin = await adminSession(app);
    const other = await adminSession(app);
    const role = await createRole(other.token, 'theirs');
    const roleId = role.id;
    const calls = [
      app.api.call('getRole', { token: admin.token, params: { roleId } }),
      app.api.call('updateRole', {
        token: admin.token,
        params: { roleId },
        body: roleBody({ lockVersion: 0, name: 'x' }),
      }),
      app.api.call('deleteRole', { token: admin.token, params: { roleId } }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(response.body.errors[0].code).toBe('NOT_FOUND');
    }
    const assign = await createUser(app, admin.token, [admin.defaultGroupId]).catch((e: Error) => e);
    expect(assign).not.toBeInstanceOf(Error);
    const foreignRole = await app.api.call('createUser', {
      token: admin.token,
      body: {
        data: {
          type: 'User',
          attributes: {
            loginId: 'foreign-role-x',
            name: 'x',
            email: 'x@example.com',
            groupIds: [admin.defaultGroupId],
            roleIds: [roleId],
          },
        },
      },
    });
    expect(foreignRole.body.errors[0]).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
      source: { pointer: '/data/attributes/roleIds/0' },
    });
    expect(
      (await app.api.call('getRole', { token: other.token, params: { roleId } })).body.data.attributes,
    ).toMatchObject({ name: 'theirs', lockVersion: 0 });
  });
});
