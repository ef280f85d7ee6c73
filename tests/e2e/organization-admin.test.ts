// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import { describe, expect, it } from 'vitest';
import groupsJa from '../../web/src/features/groups/i18n/ja.json' with { type: 'json' };
import rolesJa from '../../web/src/features/roles/i18n/ja.json' with { type: 'json' };
import usersJa from '../../web/src/features/users/i18n/ja.json' with { type: 'json' };
import { DATA_LIST_TEXTS } from '../../web/src/components/data-list-texts.ts';
import {
  exact,
  heading,
  landedOn,
  MOBILE,
  screenshot,
  signIn,
  TEXTS,
  toast,
  useApp,
  useBrowser,
  type Viewport,
} from '../helpers/browser.ts';
import { currentTermsId } from '../helpers/accounts.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';

// The users, groups and roles screens in chromium against the real service: an administrator builds a group, a
// role and a user through the screens, and the invited user signs in with the mailed temporary password.

const app = useApp();
const browser = useBrowser();
const { auth, errors, common } = TEXTS.ja;
const list = DATA_LIST_TEXTS.ja;

/** An organization and a page signed in as its owner (an administrator), showing `path`. */
function adminPage(path: string, viewport?: Viewport) {
  return browser.openAsOwner({ app, viewport, path });
}

/** The organization's first group (created with it at sign-up). */
async function firstGroupId(token: string): Promise<string> {
  const groups = await app.api.call('listGroups', { token });
  expect(groups.status).toBe(200);
  return groups.body.data[0].id as string;
}

function temporaryPasswordIn(text: string): string {
  const match = /(?:仮パスワード|Temporary password): (\S+)/.exec(text);
  if (!match) throw new Error(`no temporary password in the mail:\n${text}`);
  return match[1]!;
}

describe('organization administration in the browser', () => {
  it('an admin creates a group, a role and a user; the user signs in', async () => {
    const { page, token, org } = await adminPage('/organizations/settings/groups');
    const settingsNav = page.getByRole('navigation', { name: common.settings.menuLabel });

    // A group.
    await heading(page, groupsJa.title);
    await page.getByRole('button', { name: groupsJa.list.create, ...exact }).click();
    await page.getByLabel(groupsJa.fields.name, exact).fill('法務部');
    await page.getByLabel(groupsJa.fields.systemLinkId, exact).fill('G-LEGAL');
    await page.getByRole('button', { name: groupsJa.form.create, ...exact }).click();
    await toast(page, groupsJa.form.created.replace('{{name}}', '法務部')).waitFor();
    await page.getByRole('link', { name: '法務部', ...exact }).waitFor();
    await screenshot(page, 'admin-groups-list');

    // A role that may execute (and so view) sign tasks and view read tasks.
    await settingsNav.getByRole('link', { name: common.settings.sections.roles, ...exact }).click();
    await landedOn(page, '/organizations/settings/roles');
    await heading(page, rolesJa.title);
    await page.getByRole('button', { name: rolesJa.list.create, ...exact }).click();
    await page.getByLabel(rolesJa.fields.name, exact).fill('署名担当');
    const cell = (task: string, capability: string) =>
      page.getByLabel(rolesJa.matrix.cell.replace('{{task}}', task).replace('{{capability}}', capability), exact);
    await cell(rolesJa.tasks.sign, rolesJa.capabilities.execute).check();
    expect(await cell(rolesJa.tasks.sign, rolesJa.capabilities.view).isChecked()).toBe(true);
    await cell(rolesJa.tasks.read, rolesJa.capabilities.view).check();
    await screenshot(page, 'admin-role-form');
    await page.getByRole('button', { name: rolesJa.form.create, ...exact }).click();
    await toast(page, rolesJa.form.created.replace('{{name}}', '署名担当')).waitFor();
    await page.getByRole('cell', { name: '署名担当', ...exact }).waitFor();
    const roles = await app.api.call('listRoles', { token, query: { 'filter[q]': '署名担当' } });
    expect(roles.body.data[0].attributes.taskPermissions).toEqual({
      sign: { execute: true, view: true },
      approve: { execute: false, view: false },
      read: { execute: false, view: true },
    });

    // A user in that group with that role.
    await settingsNav.getByRole('link', { name: common.settings.sections.users, ...exact }).click();
    await landedOn(page, '/organizations/settings/users');
    await heading(page, usersJa.title);
    await page.getByRole('link', { name: usersJa.list.create, ...exact }).click();
    await landedOn(page, '/organizations/settings/users/new');
    await heading(page, usersJa.form.newTitle);
    const loginId = `invited-${process.pid}`;
    const email = `${loginId}@example.com`;
    // The client checks first: nothing is sent without a group, and the phone number takes digits only.
    await page.getByLabel(usersJa.fields.loginId, exact).fill(loginId);
    await page.getByLabel(usersJa.fields.name, exact).fill('鈴木 次郎');
    await page.getByLabel(usersJa.fields.email, exact).fill(email);
    await page.getByLabel(usersJa.fields.mobilePhone, exact).fill('090-1234-5678');
    await page.getByRole('button', { name: usersJa.form.create, ...exact }).click();
    await page.getByRole('alert').filter({ hasText: errors.USER_GROUP_REQUIRED }).waitFor();
    await page.getByText(errors.MOBILE_PHONE_INVALID).first().waitFor();
    await screenshot(page, 'admin-user-form-problems');
    await page.getByLabel(usersJa.fields.mobilePhone, exact).fill('09012345678');
    await page.getByLabel('法務部', exact).check();
    await page.getByLabel('署名担当', exact).check();
    await page.getByRole('button', { name: usersJa.form.create, ...exact }).click();

    await toast(page, usersJa.form.created.replace('{{loginId}}', loginId)).waitFor();
    const url = await landedOn(page, /^\/organizations\/settings\/users\/[0-9a-f-]{36}$/);
    await heading(page, '鈴木 次郎');
    await screenshot(page, 'admin-user-detail');
    const userId = url.pathname.split('/').pop()!;
    const created = await app.api.call('getUser', { token, params: { userId } });
    expect(created.status).toBe(200);
    expect(created.body.data.attributes).toMatchObject({
      loginId,
      email,
      mobilePhone: '09012345678',
      groups: [{ name: '法務部', isGroupAdmin: false }],
      roles: [{ name: '署名担当' }],
    });
    expect(org.loginId).not.toBe(loginId);

    // The invited user signs in with the mailed temporary password, sets their own, and reaches the dashboard.
    const mail = await waitForMail(app, (m) => recipientOf(m).includes(email), 20_000);
    const temporaryPassword = temporaryPasswordIn(mail.text ?? '');
    const invited = await browser.open({ app });
    await invited.goto('/login');
    await heading(invited, auth.login.title);
    await invited.getByLabel(auth.fields.loginId, exact).fill(loginId);
    await invited.getByLabel(auth.fields.password, exact).fill(temporaryPassword);
    await invited.getByRole('button', { name: auth.login.submit, ...exact }).click();
    await landedOn(invited, '/initial-password-change');
    await heading(invited, auth.passwordChange.initial.title);
    const newPassword = 'my-own-pass7';
    await invited.getByLabel(auth.passwordChange.initial.currentPassword, exact).fill(temporaryPassword);
    await invited.getByLabel(auth.fields.newPassword, exact).fill(newPassword);
    await invited.getByLabel(auth.fields.newPasswordConfirmation, exact).fill(newPassword);
    await invited.getByRole('button', { name: auth.passwordChange.submit, ...exact }).click();
    // A user who never signed in has not agreed to the terms in force: the server asks, and the page shows them.
    const consent = invited.getByLabel(auth.terms.agree, exact);
    await consent.waitFor();
    await invited.locator(`[id="${await consent.getAttribute('id')}"]:enabled`).waitFor();
    await consent.check();
    await screenshot(invited, 'invited-user-initial-password-change');
    await invited.getByRole('button', { name: auth.passwordChange.submit, ...exact }).click();
    await landedOn(invited, '/');
    await heading(invited, auth.home.title);
    await invited.getByText(auth.home.greeting.replace('{{name}}', '鈴木 次郎'), exact).waitFor();
    await screenshot(invited, 'invited-user-dashboard');
    await expect(signIn(app, loginId, newPassword)).resolves.toHaveProperty('refreshToken');
  }, 90_000);

  it('shows "Updated by another user" to the second of two edits of the same user, and reloads', async () => {
    const { page, token } = await adminPage('/login');
    const groupId = await firstGroupId(token);
    const created = await app.api.call('createUser', {
      token,
      body: {
        data: {
          type: 'User',
          attributes: {
            loginId: `twice-${process.pid}`,
            name: '佐藤 一',
            email: 'twice@example.com',
            groupIds: [groupId],
          },
        },
      },
    });
    expect(created.status).toBe(201);
    const path = `/organizations/settings/users/${created.body.data.id}`;
    const second = await page.context().newPage();
    for (const tab of [page, second]) {
      await tab.goto(path);
      await heading(tab, '佐藤 一');
    }

    await page.getByLabel(usersJa.fields.name, exact).fill('佐藤 一郎');
    await page.getByRole('button', { name: usersJa.form.save, ...exact }).click();
    await toast(page, usersJa.form.saved).waitFor();

    await second.getByLabel(usersJa.fields.name, exact).fill('佐藤 はじめ');
    await second.getByRole('button', { name: usersJa.form.save, ...exact }).click();
    const alert = second.getByRole('alert').filter({ hasText: errors.UPDATED_BY_ANOTHER_USER });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('他のユーザーが更新しました');
    await screenshot(second, 'admin-user-409');
    const stored = await app.api.call('getUser', { token, params: { userId: created.body.data.id } });
    expect(stored.body.data.attributes.name).toBe('佐藤 一郎');

    // Reload puts the other edit in the form; saving again then works.
    await alert.getByRole('button', { name: list.reload, ...exact }).click();
    await second.waitForFunction((label) => {
      const input = [...document.querySelectorAll('label')].find((l) => l.textContent === label)?.control;
      return (input as HTMLInputElement | undefined)?.value === '佐藤 一郎';
    }, usersJa.fields.name);
    await second.getByLabel(usersJa.fields.name, exact).fill('佐藤 はじめ');
    await second.getByRole('button', { name: usersJa.form.save, ...exact }).click();
    await toast(second, usersJa.form.saved).waitFor();
    const after = await app.api.call('getUser', { token, params: { userId: created.body.data.id } });
    expect(after.body.data.attributes.name).toBe('佐藤 はじめ');
  });

  it('refuses to remove a group administrator with its message, and fits 360 px with sideways-scrolling tables', async () => {
    const { page, token, org } = await adminPage('/login', MOBILE);
    const groupId = await firstGroupId(token);
    await page.goto(`/organizations/settings/groups/${groupId}`);
    await page.getByRole('heading', { level: 2, name: groupsJa.members.heading, ...exact }).waitFor();
    const ownerName = '山田 太郎';
    await page
      .getByRole('button', { name: groupsJa.members.removeLabel.replace('{{name}}', ownerName), ...exact })
      .click();
    const dialog = page.getByRole('dialog', { name: groupsJa.members.removeTitle.replace('{{name}}', ownerName) });
    await dialog.getByRole('button', { name: groupsJa.members.remove, ...exact }).click();
    await page.getByRole('alert').filter({ hasText: errors.GROUP_ADMIN_CANNOT_BE_REMOVED }).waitFor();
    await screenshot(page, 'admin-group-refusal-360');
    const members = await app.api.call('listGroupMembers', { token, params: { groupId } });
    expect(members.body.data.map((m: { attributes: { loginId: string } }) => m.attributes.loginId)).toContain(
      org.loginId,
    );

    await page.goto('/organizations/settings/users');
    await heading(page, usersJa.title);
    await page.getByRole('link', { name: org.loginId, ...exact }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const table = page.getByRole('region', { name: usersJa.list.tableLabel });
    const scroll = await table.evaluate((element) => ({ client: element.clientWidth, scroll: element.scrollWidth }));
    expect(scroll.scroll).toBeGreaterThan(scroll.client);
    await screenshot(page, 'admin-users-list-360');
  });

  it("a group administrator manages their group's members and sees no administrator buttons", async () => {
    const { token } = await adminPage('/login');
    const firstGroup = await firstGroupId(token);
    const sales = await app.api.call('createGroup', {
      token,
      body: { data: { type: 'Group', attributes: { name: '営業部' } } },
    });
    expect(sales.status).toBe(201);
    const salesId = sales.body.data.id as string;
    const register = async (loginId: string, name: string) => {
      const response = await app.api.call('createUser', {
        token,
        body: {
          data: {
            type: 'User',
            attributes: { loginId, name, email: `${loginId}@example.com`, groupIds: [firstGroup, salesId] },
          },
        },
      });
      expect(response.status).toBe(201);
      return response.body.data.id as string;
    };
    const leaderId = `leader-${process.pid}`;
    await register(leaderId, '高橋 リーダー');
    const memberUserId = await register(`member-${process.pid}`, '伊藤 メンバー');
    const leader = await app.api.call('listUsers', { token, query: { 'filter[q]': leaderId } });
    const granted = await app.api.call('updateGroupMember', {
      token,
      params: { groupId: salesId, userId: leader.body.data[0].id },
      body: { data: { type: 'GroupMember', attributes: { isGroupAdmin: true } } },
    });
    expect(granted.status).toBe(200);

    // The leader sets their own password (over the API: the screen is proven above) and opens the settings.
    const mail = await waitForMail(app, (m) => recipientOf(m).includes(`${leaderId}@example.com`), 20_000);
    const temporaryPassword = temporaryPasswordIn(mail.text ?? '');
    const changed = await app.api.call('changePasswordAndSignIn', {
      body: {
        data: {
          type: 'PasswordChange',
          attributes: {
            loginId: leaderId,
            currentPassword: temporaryPassword,
            password: 'leader-pass8',
            passwordConfirmation: 'leader-pass8',
            acceptTermId: await currentTermsId(app),
          },
        },
      },
    });
    expect(changed.status).toBe(201);
    const page = await browser.openSignedIn({
      app,
      session: changed.body.data.attributes,
      path: '/organizations/settings/users',
      heading: usersJa.title,
    });
    await page.getByRole('link', { name: leaderId, ...exact }).waitFor();
    expect(await page.getByRole('link', { name: usersJa.list.create, ...exact }).count()).toBe(0);
    const settingsNav = page.getByRole('navigation', { name: common.settings.menuLabel });
    expect(await settingsNav.getByRole('link', { name: common.settings.sections.roles, ...exact }).count()).toBe(0);

    await page.goto(`/organizations/settings/groups/${salesId}`);
    await heading(page, '営業部');
    await page.getByText(groupsJa.detail.readOnly, exact).waitFor();
    await page.getByRole('heading', { level: 2, name: groupsJa.add.heading, ...exact }).waitFor();
    const removeMember = page.getByRole('button', {
      name: groupsJa.members.removeLabel.replace('{{name}}', '伊藤 メンバー'),
      ...exact,
    });
    await removeMember.waitFor();
    expect(await page.getByRole('button', { name: groupsJa.detail.delete, ...exact }).count()).toBe(0);
    expect(await page.getByRole('button', { name: groupsJa.members.grant, ...exact }).count()).toBe(0);
    expect(await page.getByRole('button', { name: groupsJa.members.revoke, ...exact }).count()).toBe(0);
    expect(await page.getByLabel(groupsJa.add.asGroupAdmin, exact).count()).toBe(0);
    await screenshot(page, 'group-admin-group-detail');

    await removeMember.click();
    const dialog = page.getByRole('dialog', {
      name: groupsJa.members.removeTitle.replace('{{name}}', '伊藤 メンバー'),
    });
    await dialog.getByRole('button', { name: groupsJa.members.remove, ...exact }).click();
    await toast(page, groupsJa.members.removed.replace('{{name}}', '伊藤 メンバー')).waitFor();
    const after = await app.api.call('getUser', { token, params: { userId: memberUserId } });
    expect(after.body.data.attributes.groups.map((g: { id: string }) => g.id)).toEqual([firstGroup]);
  });
});
