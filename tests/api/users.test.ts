import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { readOutbox, recipientOf } from '../helpers/mail.ts';
import {
  activeMember,
  adminSession,
  createGroup,
  createUser,
  lastLog,
  NO_TASKS,
  PASSWORD,
  signInBody,
  temporaryPasswordOf,
  uniqueLoginId,
  userBody,
} from '../helpers/org-admin.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const action = (lockVersion: number) => ({ data: { type: 'User', attributes: { lockVersion } } });
const getUser = (token: string, userId: string) => app.api.call('getUser', { token, params: { userId } });

describe('creating users', () => {
  it('creates a user with groups and roles and logs user.created', async () => {
    const admin = await adminSession(app);
    const role = await app.api.call('createRole', {
      token: admin.token,
      body: { data: { type: 'Role', attributes: { name: '承認者', taskPermissions: NO_TASKS } } },
    });
    const user = await createUser(app, admin.token, [admin.defaultGroupId], {
      roleIds: [role.body.data.id],
      subEmails: ['a@example.com', 'b@example.com'],
      mobilePhone: '09012345678',
      systemLinkId: 'EMP-001',
    });
    expect(user.attributes).toMatchObject({
      status: 'active',
      isAdmin: false,
      mustChangePassword: true,
      locked: false,
      emailBlocked: false,
      subEmails: ['a@example.com', 'b@example.com'],
      mobilePhone: '09012345678',
      systemLinkId: 'EMP-001',
      groups: [{ id: admin.defaultGroupId, isGroupAdmin: false }],
      roles: [{ id: role.body.data.id, name: '承認者' }],
    });
    const log = await lastLog(app, 'user.created', user.id);
    expect(log).toMatchObject({ organization_id: admin.organizationId, actor_user_id: admin.ownerId });
  });

  it('mails an invitation whose temporary password works once and must be changed at the first sign-in', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const loginId = user.attributes.loginId;
    const temporary = await temporaryPasswordOf(app, user.attributes.email);
    const first = await app.api.call('signIn', { body: signInBody(loginId, temporary) });
    expect(first.status).toBe(403);
    expect(first.body.errors[0].code).toBe('INITIAL_PASSWORD_CHANGE_REQUIRED');
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    expect(member.token).toBeTruthy();
    const row = await knex()('users').where({ login_id: member.loginId }).first();
    expect(row.must_change_password).toBe(false);
    const mails = await readOutbox(app);
    const invitation = mails.find((m) => recipientOf(m).includes(user.attributes.email));
    expect(invitation?.text).toContain(loginId);
  });

  it('rejects a user ID that is already taken with 422 LOGIN_ID_TAKEN', async () => {
    const admin = await adminSession(app);
    const response = await app.api.call('createUser', {
      token: admin.token,
      body: userBody({ loginId: admin.loginId, name: 'x', email: 'x@example.com', groupIds: [admin.defaultGroupId] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'LOGIN_ID_TAKEN',
      source: { pointer: '/data/attributes/loginId' },
    });
  });

  it('rejects a mobile phone number with hyphens or the wrong length with 422 MOBILE_PHONE_INVALID', async () => {
    const admin = await adminSession(app);
    for (const mobilePhone of ['090-1234-5678', '090123456']) {
      const response = await app.api.call('createUser', {
        token: admin.token,
        body: userBody({
          loginId: uniqueLoginId(),
          name: 'x',
          email: 'x@example.com',
          groupIds: [admin.defaultGroupId],
          mobilePhone,
        }),
      });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        code: 'MOBILE_PHONE_INVALID',
        source: { pointer: '/data/attributes/mobilePhone' },
      });
    }
    expect(await knex()('users').where({ organization_id: admin.organizationId }).count({ n: '*' })).toEqual([
      { n: 1 },
    ]);
  });

  it('accepts at most 3 sub e-mail addresses', async () => {
    const admin = await adminSession(app);
    const response = await app.api.call('createUser', {
      token: admin.token,
      body: userBody({
        loginId: uniqueLoginId(),
        name: 'x',
        email: 'x@example.com',
        groupIds: [admin.defaultGroupId],
        subEmails: ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'],
      }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/attributes/subEmails');
  });

  it('rejects an ID for system link used by another user of the organization with 422 SYSTEM_LINK_ID_TAKEN', async () => {
    const admin = await adminSession(app);
    await createUser(app, admin.token, [admin.defaultGroupId], { systemLinkId: 'EMP-9' });
    const response = await app.api.call('createUser', {
      token: admin.token,
      body: userBody({
        loginId: uniqueLoginId(),
        name: 'x',
        email: 'x@example.com',
        groupIds: [admin.defaultGroupId],
        systemLinkId: 'EMP-9',
      }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'SYSTEM_LINK_ID_TAKEN',
      source: { pointer: '/data/attributes/systemLinkId' },
    });
  });

  it('rejects a group of another organization with 422 REFERENCE_NOT_FOUND and writes nothing', async () => {
    const admin = await adminSession(app);
    const other = await adminSession(app);
    const loginId = uniqueLoginId();
    const response = await app.api.call('createUser', {
      token: admin.token,
      body: userBody({ loginId, name: 'x', email: 'x@example.com', groupIds: [other.defaultGroupId] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
      source: { pointer: '/data/attributes/groupIds/0' },
    });
    expect(await knex()('users').where({ login_id: loginId }).first()).toBeUndefined();
  });
});

describe('updating users', () => {
  it('keeps a user in at least one group (422 USER_GROUP_REQUIRED)', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const response = await app.api.call('updateUser', {
      token: admin.token,
      params: { userId: user.id },
      body: userBody({ lockVersion: user.attributes.lockVersion, groupIds: [] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'USER_GROUP_REQUIRED',
      source: { pointer: '/data/attributes/groupIds' },
    });
    expect((await getUser(admin.token, user.id)).body.data.attributes.groups).toHaveLength(1);
  });

  it('changes attributes and groups and logs user.updated', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const response = await app.api.call('updateUser', {
      token: admin.token,
      params: { userId: user.id },
      body: userBody({
        lockVersion: user.attributes.lockVersion,
        name: '新しい名前',
        groupIds: [sales],
        isAdmin: true,
      }),
    });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ name: '新しい名前', isAdmin: true, groups: [{ id: sales }] });
    expect(response.body.data.attributes.lockVersion).toBe(user.attributes.lockVersion + 1);
    expect((await lastLog(app, 'user.updated', user.id)).details.changed).toEqual(['name', 'isAdmin', 'groups']);
  });

  it('rejects a stale lockVersion with 409 UPDATED_BY_ANOTHER_USER', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const update = (name: string) =>
      app.api.call('updateUser', {
        token: admin.token,
        params: { userId: user.id },
        body: userBody({ lockVersion: user.attributes.lockVersion, name }),
      });
    expect((await update('first')).status).toBe(200);
    const stale = await update('second');
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    expect((await getUser(admin.token, user.id)).body.data.attributes.name).toBe('first');
  });

  it('keeps the owner an administrator (422 OWNER_PROTECTED)', async () => {
    const admin = await adminSession(app);
    const owner = (await getUser(admin.token, admin.ownerId)).body.data;
    const response = await app.api.call('updateUser', {
      token: admin.token,
      params: { userId: admin.ownerId },
      body: userBody({ lockVersion: owner.attributes.lockVersion, isAdmin: false }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].code).toBe('OWNER_PROTECTED');
    expect((await getUser(admin.token, admin.ownerId)).body.data.attributes.isAdmin).toBe(true);
  });
});

describe('listing users', () => {
  it('searches user ID, name and e-mail, filters by group, role and status, sorts and pages', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部');
    const role = await app.api.call('createRole', {
      token: admin.token,
      body: { data: { type: 'Role', attributes: { name: 'r', taskPermissions: NO_TASKS } } },
    });
    const a = await createUser(app, admin.token, [sales], { name: 'Alice Findme' });
    const b = await createUser(app, admin.token, [admin.defaultGroupId], { roleIds: [role.body.data.id] });
    const c = await createUser(app, admin.token, [admin.defaultGroupId]);
    await app.api.call('deactivateUser', {
      token: admin.token,
      params: { userId: c.id },
      body: action(c.attributes.lockVersion),
    });
    const list = (query: Record<string, string | number>) => app.api.call('listUsers', { token: admin.token, query });
    const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((u) => u.id);
    expect(ids(await list({ 'filter[q]': 'findme' }))).toEqual([a.id]);
    expect(ids(await list({ 'filter[q]': b.attributes.email }))).toEqual([b.id]);
    expect(ids(await list({ 'filter[groupId]': sales }))).toEqual([a.id]);
    expect(ids(await list({ 'filter[roleId]': role.body.data.id }))).toEqual([b.id]);
    expect(ids(await list({ 'filter[status]': 'deactivated' }))).toEqual([c.id]);
    const page = await list({ sort: '-createdAt', 'page[size]': 2, 'page[number]': 1 });
    expect(page.body.meta).toEqual({ total: 4, page: { number: 1, size: 2 } });
    expect(ids(page)).toEqual([c.id, b.id]);
    expect(ids(await list({ 'filter[q]': '100%_' }))).toEqual([]);
  });
});

describe('deactivation, deletion and locks', () => {
  it('refuses to let a user delete, deactivate or lock themselves (422 USER_IS_SELF)', async () => {
    const admin = await adminSession(app);
    const second = await activeMember(app, admin.token, [admin.defaultGroupId], { isAdmin: true });
    const self = (await getUser(second.token, second.id)).body.data;
    for (const operationId of ['deactivateUser', 'lockUser'] as const) {
      const response = await app.api.call(operationId, {
        token: second.token,
        params: { userId: second.id },
        body: action(self.attributes.lockVersion),
      });
      expect(response.status).toBe(422);
      expect(response.body.errors[0].code).toBe('USER_IS_SELF');
    }
    const deleted = await app.api.call('deleteUser', { token: second.token, params: { userId: second.id } });
    expect(deleted.body.errors[0].code).toBe('USER_IS_SELF');
    expect((await getUser(admin.token, second.id)).body.data.attributes).toMatchObject({
      status: 'active',
      locked: false,
    });
  });

  it('refuses to delete, deactivate or lock the owner (422 OWNER_PROTECTED)', async () => {
    const admin = await adminSession(app);
    const second = await activeMember(app, admin.token, [admin.defaultGroupId], { isAdmin: true });
    const response = await app.api.call('deleteUser', { token: second.token, params: { userId: admin.ownerId } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].code).toBe('OWNER_PROTECTED');
  });

  it('deactivation ends every session and refuses sign-in; reactivation allows it again', async () => {
    const admin = await adminSession(app);
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    let user = (await getUser(admin.token, member.id)).body.data;
    const off = await app.api.call('deactivateUser', {
      token: admin.token,
      params: { userId: member.id },
      body: action(user.attributes.lockVersion),
    });
    expect(off.body.data.attributes.status).toBe('deactivated');
    expect((await app.api.call('getCurrentUser', { token: member.token })).status).toBe(401);
    const refused = await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) });
    expect(refused.body.errors[0].code).toBe('INVALID_CREDENTIALS');
    expect(await lastLog(app, 'user.deactivated', member.id)).toBeTruthy();
    user = off.body.data;
    const on = await app.api.call('reactivateUser', {
      token: admin.token,
      params: { userId: member.id },
      body: action(user.attributes.lockVersion),
    });
    expect(on.body.data.attributes.status).toBe('active');
    expect((await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) })).status).toBe(201);
  });

  it('deletes softly: the user disappears, cannot sign in and leaves its groups, the row stays', async () => {
    const admin = await adminSession(app);
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    expect((await app.api.call('deleteUser', { token: admin.token, params: { userId: member.id } })).status).toBe(204);
    expect((await getUser(admin.token, member.id)).status).toBe(404);
    const list = await app.api.call('listUsers', { token: admin.token });
    expect(list.body.data.map((u: { id: string }) => u.id)).not.toContain(member.id);
    expect((await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) })).status).toBe(401);
    expect((await app.api.call('getCurrentUser', { token: member.token })).status).toBe(401);
    expect(await knex()('users').where({ id: member.id }).first('status')).toEqual({ status: 'deleted' });
    expect(await knex()('group_members').where({ user_id: member.id })).toEqual([]);
    expect(await lastLog(app, 'user.deleted', member.id)).toBeTruthy();
  });

  it('an administrator lock refuses sign-in with 403 ACCOUNT_LOCKED_BY_ADMIN and ends sessions; unlock lifts it', async () => {
    const admin = await adminSession(app);
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    const user = (await getUser(admin.token, member.id)).body.data;
    const locked = await app.api.call('lockUser', {
      token: admin.token,
      params: { userId: member.id },
      body: action(user.attributes.lockVersion),
    });
    expect(locked.body.data.attributes).toMatchObject({ locked: true, lockedByAdmin: true });
    expect((await app.api.call('getCurrentUser', { token: member.token })).status).toBe(401);
    const refused = await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('ACCOUNT_LOCKED_BY_ADMIN');
    const unlocked = await app.api.call('unlockUser', {
      token: admin.token,
      params: { userId: member.id },
      body: action(locked.body.data.attributes.lockVersion),
    });
    expect(unlocked.body.data.attributes.locked).toBe(false);
    expect((await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) })).status).toBe(201);
    expect(await lastLog(app, 'user.unlocked', member.id)).toBeTruthy();
  });

  it('unlock also clears the lock after repeated failed sign-ins', async () => {
    const admin = await adminSession(app);
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    for (let i = 0; i < 5; i++) await app.api.call('signIn', { body: signInBody(member.loginId, 'wrong-password1') });
    expect((await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) })).status).toBe(429);
    const user = (await getUser(admin.token, member.id)).body.data;
    expect(user.attributes).toMatchObject({ locked: true, lockedByAdmin: false });
    await app.api.call('unlockUser', {
      token: admin.token,
      params: { userId: member.id },
      body: action(user.attributes.lockVersion),
    });
    expect((await app.api.call('signIn', { body: signInBody(member.loginId, PASSWORD) })).status).toBe(201);
  });
});

describe('invitations and e-mail state', () => {
  it('re-sending the invitation issues a new temporary password and the old one stops working', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const first = await temporaryPasswordOf(app, user.attributes.email);
    const resent = await app.api.call('resendUserInvitation', { token: admin.token, params: { userId: user.id } });
    expect(resent.status).toBe(202);
    const second = await temporaryPasswordOf(app, user.attributes.email, [first]);
    expect(second).not.toBe(first);
    expect((await app.api.call('signIn', { body: signInBody(user.attributes.loginId, first) })).status).toBe(401);
    const withNew = await app.api.call('signIn', { body: signInBody(user.attributes.loginId, second) });
    expect(withNew.body.errors[0].code).toBe('INITIAL_PASSWORD_CHANGE_REQUIRED');
  });

  it('sends nothing to a blocked e-mail address until an administrator unblocks it', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    await temporaryPasswordOf(app, user.attributes.email);
    await knex()('users').where({ id: user.id }).update({ email_blocked_at: new Date() });
    const blocked = (await getUser(admin.token, user.id)).body.data;
    expect(blocked.attributes.emailBlocked).toBe(true);
    await app.api.call('resendUserInvitation', { token: admin.token, params: { userId: user.id } });
    for (let i = 0; i < 50 && !(await lastLog(app, 'mail.skipped_blocked_address', user.id)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await lastLog(app, 'mail.skipped_blocked_address', user.id)).toBeTruthy();
    const mails = (await readOutbox(app)).filter((m) => recipientOf(m).includes(user.attributes.email));
    expect(mails).toHaveLength(1);
    const unblocked = await app.api.call('unblockUserEmail', {
      token: admin.token,
      params: { userId: user.id },
      body: action(blocked.attributes.lockVersion),
    });
    expect(unblocked.body.data.attributes.emailBlocked).toBe(false);
    await app.api.call('resendUserInvitation', { token: admin.token, params: { userId: user.id } });
    await temporaryPasswordOf(app, user.attributes.email, [/* any new one */]);
    expect(await lastLog(app, 'user.email_unblocked', user.id)).toBeTruthy();
  });
});

describe('access', () => {
  it('lets a group administrator read users but not create them; an ordinary member reads nothing', async () => {
    const admin = await adminSession(app);
    const groupAdmin = await activeMember(app, admin.token, [admin.defaultGroupId]);
    await knex()('group_members').where({ user_id: groupAdmin.id }).update({ is_group_admin: true });
    const plain = await activeMember(app, admin.token, [admin.defaultGroupId]);
    expect((await app.api.call('listUsers', { token: groupAdmin.token })).status).toBe(200);
    const create = await app.api.call('createUser', {
      token: groupAdmin.token,
      body: userBody({ loginId: uniqueLoginId(), name: 'x', email: 'x@example.com', groupIds: [admin.defaultGroupId] }),
    });
    expect(create.status).toBe(403);
    const denied = await app.api.call('listUsers', { token: plain.token });
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
  });

  it('answers 404 for every user operation with an id of another organization and changes nothing', async () => {
    const admin = await adminSession(app);
    const other = await adminSession(app);
    const victim = await createUser(app, other.token, [other.defaultGroupId]);
    const userId = victim.id;
    const lockVersion = victim.attributes.lockVersion;
    const calls = [
      app.api.call('getUser', { token: admin.token, params: { userId } }),
      app.api.call('updateUser', {
        token: admin.token,
        params: { userId },
        body: userBody({ lockVersion, name: 'hacked' }),
      }),
      app.api.call('deleteUser', { token: admin.token, params: { userId } }),
      app.api.call('resendUserInvitation', { token: admin.token, params: { userId } }),
      ...(['deactivateUser', 'reactivateUser', 'lockUser', 'unlockUser', 'unblockUserEmail'] as const).map((op) =>
        app.api.call(op, { token: admin.token, params: { userId }, body: action(lockVersion) }),
      ),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(response.body.errors[0].code).toBe('NOT_FOUND');
    }
    const after = (await getUser(other.token, userId)).body.data;
    expect(after.attributes).toMatchObject({
      name: victim.attributes.name,
      status: 'active',
      locked: false,
      lockVersion,
    });
  });
});
