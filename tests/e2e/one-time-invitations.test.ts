import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import docsEn from '../../web/src/features/documents/i18n/en.json' with { type: 'json' };
import docsJa from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import en from '../../web/src/features/one-time-invitations/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/one-time-invitations/i18n/ja.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
  DESKTOP,
  exact,
  field,
  heading,
  type Language,
  MOBILE,
  screenshot,
  TEXTS,
  toast,
  useApp,
  useBrowser,
  type Viewport,
} from '../helpers/browser.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { SmtpSink } from '../peers/smtp-sink.ts';

// The member's side of one-time (guest) users in chromium against the real service: the invitations of a business
// flow (invite, re-send, cancel, re-invite; every mail through a real SMTP server), the QR screen and its expiry, the
// workspace's one-time users, and a sign task for a guest in the task editor. The malware scan is left out, so the
// test records a document's clean verdict itself (markScanned).

let sink: SmtpSink;
beforeAll(async () => {
  sink = await SmtpSink.start();
});
afterAll(() => sink?.stop());

const app = useApp(() => ({ env: { SMTP_URL: sink.url, KEIYAKU_PLUGINS_DISABLED: 'malware-scan' } }));
const browser = useBrowser();

const TEXT = { ja, en } as const;
const DOCS = { ja: docsJa, en: docsEn } as const;
const MINUTE = 60_000;
/** Filled into a catalogue text's {{placeholders}}. */
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));

/** The owner of a new organization signed in, with a workspace (its first group) and a business flow. */
async function ownerWithFlow(options: { language?: Language; viewport?: Viewport } = {}) {
  const { org, token, page } = await browser.openAsOwner({ app, plan: 'standard', ...options });
  const groupId = await firstGroupId(app, org.organizationId);
  const group = await app.service.deps.knex('groups').where({ id: groupId }).first('name');
  const seeded = await seedBusinessFlow(app, {
    organizationId: org.organizationId,
    groupId,
    createdBy: org.ownerId,
    name: '業務委託契約 2026',
  });
  return { org, token, page, groupId, groupName: group.name as string, ...seeded };
}

async function openFlow(page: Page, businessFlowId: string) {
  await page.goto(`/business-flows/${businessFlowId}`);
  await heading(page, '業務委託契約 2026');
}

/** Invites over the API (201 expected) and returns the invitation. */
async function inviteByApi(token: string, businessFlowId: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('inviteOneTimeUser', {
    token,
    params: { businessFlowId },
    body: { data: { type: 'OneTimeInvitation', attributes: { locale: 'ja', ...attributes } } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

async function invitationsOf(token: string, businessFlowId: string) {
  const response = await app.api.call('listOneTimeInvitations', { token, params: { businessFlowId } });
  expect(response.status).toBe(200);
  return response.body.data as { id: string; attributes: Record<string, any> }[];
}

/** The first link to the guest sign-in page in a mail. */
const authLink = (text: string) => /https?:\/\/\S+\/onetime\/auth\?token=[^\s>)]+/.exec(text)?.[0];

/** Waits for the `count`-th mail to `address` and returns its guest link. */
async function nthLink(address: string, count: number) {
  await expect.poll(() => sink.to(address).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  const link = authLink(sink.to(address)[count - 1]!.text);
  expect(link, sink.to(address)[count - 1]!.text).toBeTruthy();
  return link!;
}

const panel = (page: Page, language: Language = 'ja') =>
  page.getByRole('region', { name: TEXT[language].flow.tableLabel, exact: true });

/** What the window shows (a modal dialog over a long page reads better than the full page behind it). */
const windowShot = (page: Page, name: string) => screenshot(page, name, { fullPage: false });

/** Asserts the page does not scroll sideways (a table may scroll inside its own region). */
async function fitsWidth(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('one-time user invitations on the business flow screen', () => {
  it('invites a guest by e-mail, re-sends, cancels and re-invites; every mail arrives with a new link', async () => {
    const { token, page, businessFlowId, workspaceId } = await ownerWithFlow();
    await openFlow(page, businessFlowId);
    await page.getByText(ja.flow.empty, exact).waitFor();

    await page.getByRole('button', { name: ja.flow.invite, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ja.invite.title });
    await dialog.getByRole('button', { name: ja.invite.submitEmail, exact: true }).click();
    await dialog.getByText(ja.invite.nameRequired, exact).waitFor();
    await dialog.getByText(ja.invite.emailRequired, exact).waitFor();
    await field(page, ja.invite.name).fill('山田 花子');
    await field(page, ja.invite.email).fill('hanako@example');
    await dialog.getByRole('button', { name: ja.invite.submitEmail, exact: true }).click();
    await dialog.getByText(ja.invite.emailInvalid, exact).waitFor();
    await field(page, ja.invite.email).fill('hanako@example.com');
    await dialog.getByRole('button', { name: ja.invite.submitEmail, exact: true }).click();
    await toast(page, fill(ja.invite.invitedEmail, { who: '山田 花子' })).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const table = panel(page);
    await table.getByRole('cell', { name: '山田 花子', exact: true }).waitFor();
    await table.getByText(ja.statuses.invited, exact).waitFor();
    const first = await nthLink('hanako@example.com', 1);
    let [invitation] = await invitationsOf(token, businessFlowId);
    expect(invitation!.attributes).toMatchObject({
      name: '山田 花子',
      email: 'hanako@example.com',
      channel: 'email',
      status: 'invited',
    });

    // Re-send: a second mail with a new link.
    await table.getByRole('button', { name: fill(ja.flow.resendLabel, { who: '山田 花子' }), exact: true }).click();
    const confirm = page.getByRole('dialog', { name: fill(ja.flow.resendTitle, { who: '山田 花子' }) });
    await confirm.getByText(ja.flow.resendBody, exact).waitFor();
    await confirm.getByRole('button', { name: ja.flow.resend, exact: true }).click();
    await toast(page, fill(ja.flow.resent, { who: '山田 花子' })).waitFor();
    const second = await nthLink('hanako@example.com', 2);
    expect(second).not.toBe(first);

    // Cancel: the state says so and only re-invite is offered.
    await table.getByRole('button', { name: fill(ja.flow.cancelLabel, { who: '山田 花子' }), exact: true }).click();
    await page
      .getByRole('dialog', { name: fill(ja.flow.cancelTitle, { who: '山田 花子' }) })
      .getByRole('button', { name: ja.flow.cancel, exact: true })
      .click();
    await toast(page, fill(ja.flow.cancelled, { who: '山田 花子' })).waitFor();
    await table.getByText(ja.statuses.cancelled, exact).waitFor();
    expect(await table.getByRole('button', { name: fill(ja.flow.resendLabel, { who: '山田 花子' }) }).count()).toBe(0);
    [invitation] = await invitationsOf(token, businessFlowId);
    expect(invitation!.attributes.status).toBe('cancelled');

    // Re-invite: invited again, with a third mail and link.
    await table.getByRole('button', { name: fill(ja.flow.reinviteLabel, { who: '山田 花子' }), exact: true }).click();
    await page
      .getByRole('dialog', { name: fill(ja.flow.reinviteTitle, { who: '山田 花子' }) })
      .getByRole('button', { name: ja.flow.reinvite, exact: true })
      .click();
    await toast(page, fill(ja.flow.reinvited, { who: '山田 花子' })).waitFor();
    await table.getByText(ja.statuses.invited, exact).waitFor();
    const third = await nthLink('hanako@example.com', 3);
    expect(new Set([first, second, third]).size).toBe(3);
    [invitation] = await invitationsOf(token, businessFlowId);
    expect(invitation!.attributes.status).toBe('invited');

    // A stale screen: another member re-sends first, so this one's lockVersion is old.
    const resent = await app.api.call('resendOneTimeInvitation', {
      token,
      params: { invitationId: invitation!.id },
      body: { data: { type: 'OneTimeInvitation', attributes: { lockVersion: invitation!.attributes.lockVersion } } },
    });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    await table.getByRole('button', { name: fill(ja.flow.resendLabel, { who: '山田 花子' }), exact: true }).click();
    await page
      .getByRole('dialog', { name: fill(ja.flow.resendTitle, { who: '山田 花子' }) })
      .getByRole('button', { name: ja.flow.resend, exact: true })
      .click();
    await page.getByRole('alert').filter({ hasText: TEXTS.ja.errors.UPDATED_BY_ANOTHER_USER }).waitFor();

    // The workspace lists the guest with the invitation's state.
    await page.goto(`/organizations/workspaces/${workspaceId}`);
    const users = page.getByRole('region', { name: ja.workspace.tableLabel, exact: true });
    await users.getByRole('cell', { name: '山田 花子', exact: true }).waitFor();
    await users.getByRole('link', { name: '業務委託契約 2026', exact: true }).waitFor();
    await users
      .getByText(fill(ja.workspace.invitation, { channel: ja.channels.email, status: ja.statuses.invited }), exact)
      .waitFor();
  });

  it('shows a QR invitation on the QR screen, lets it expire and reopens a new one (360 px)', async () => {
    const { token, page, businessFlowId } = await ownerWithFlow({ viewport: MOBILE });
    // The page's clock must be ours before the workbench reads Date.now().
    await page.clock.install();
    await openFlow(page, businessFlowId);
    await page.getByRole('button', { name: ja.flow.invite, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ja.invite.title });
    await dialog.getByLabel(ja.invite.byQr, exact).check();
    expect(await dialog.getByLabel(ja.invite.email, exact).count()).toBe(0);
    await dialog.getByRole('button', { name: ja.invite.submitQr, exact: true }).click();
    await toast(page, ja.invite.invitedQr).waitFor();

    const screen = page.getByRole('dialog', { name: ja.qr.title });
    await screen.getByRole('img', { name: ja.qr.imageAlt, exact: true }).waitFor();
    await screen
      .getByRole('timer')
      .filter({ hasText: /残り (10:00|9:5\d)/ })
      .waitFor();
    const firstUrl = await screen.locator('output').innerText();
    expect(firstUrl).toMatch(/\/onetime\/qr\/[\w-]+$/);
    await fitsWidth(page);
    await windowShot(page, 'one-time-qr-screen-ja-360');

    // Ten minutes later, in the browser and on the server.
    await page.clock.fastForward('10:01');
    app.clock.advance(10 * MINUTE + 1000);
    await screen.getByText(ja.qr.expired, exact).waitFor();
    expect(await screen.getByRole('img', { name: ja.qr.imageAlt }).count()).toBe(0);
    await windowShot(page, 'one-time-qr-expired-ja-360');
    const qrToken = firstUrl.split('/').pop()!;
    const dead = await app.api.call('getOneTimeQrInvitation', { params: { qrToken } });
    expect(dead.status).toBe(410);

    await screen.getByRole('button', { name: ja.qr.reopen, exact: true }).click();
    await screen.getByRole('img', { name: ja.qr.imageAlt, exact: true }).waitFor();
    await screen
      .getByRole('timer')
      .filter({ hasText: /残り (10:00|9:5\d)/ })
      .waitFor();
    const secondUrl = await screen.locator('output').innerText();
    expect(secondUrl).not.toBe(firstUrl);
    const live = await app.api.call('getOneTimeQrInvitation', { params: { qrToken: secondUrl.split('/').pop()! } });
    expect(live.status).toBe(200);

    await screen.getByRole('button', { name: ja.qr.close, exact: true }).click();
    await screen.waitFor({ state: 'hidden' });
    const table = panel(page);
    await table.getByText(ja.channels.qr, exact).waitFor();
    await table.getByRole('button', { name: fill(ja.flow.showQrLabel, { who: ja.qrGuest }), exact: true }).waitFor();
    const [invitation] = await invitationsOf(token, businessFlowId);
    expect(invitation!.attributes).toMatchObject({ channel: 'qr', status: 'invited', email: null });
  });
});

describe('a one-time user in the task editor', () => {
  it('assigns a sign task to a guest: only the guest signature types and codes are offered', async () => {
    const { token, page, businessFlowId, groupName } = await ownerWithFlow();
    await inviteByApi(token, businessFlowId, { channel: 'email', name: '山田 花子', email: 'hanako@example.com' });
    const uploaded = await uploadPdf(app, token, businessFlowId, { name: '業務委託契約書' });
    await markScanned(app, uploaded.id);
    await page.goto(`/organizations/documents/${uploaded.id}`);
    await heading(page, '業務委託契約書');

    const row = (n: number) => page.getByRole('group', { name: `${n}行目`, exact: true });
    await row(1)
      .getByLabel(docsJa.editor.assignee, exact)
      .selectOption({ label: `グループ：${groupName}` });
    await page.getByRole('button', { name: docsJa.editor.add, exact: true }).click();
    const guestOption = fill(docsJa.editor.guestOption, { name: '山田 花子', email: 'hanako@example.com' });
    await row(2).getByLabel(docsJa.editor.type, exact).selectOption({ label: docsJa.taskTypes.sign });
    await row(2).getByLabel(docsJa.editor.assignee, exact).selectOption({ label: guestOption });
    const types = await row(2).getByLabel(docsJa.editor.signatureType, exact).locator('option').allTextContents();
    expect(types).not.toContain(docsJa.signatureTypes.party);
    expect(types).toContain(docsJa.signatureTypes.handwritten);
    expect(await row(2).getByLabel(docsJa.editor.role, exact).isDisabled()).toBe(true);
    await row(2)
      .getByLabel(docsJa.editor.signatureType, exact)
      .selectOption({ label: docsJa.signatureTypes.handwritten });
    const codes = await row(2).getByLabel(docsJa.editor.twoFactor, exact).locator('option').allTextContents();
    expect(codes).toEqual([docsJa.twoFactors.none, docsJa.twoFactors.email]);
    await row(2).getByLabel(docsJa.editor.twoFactor, exact).selectOption({ label: docsJa.twoFactors.email });
    await page.getByRole('button', { name: docsJa.editor.save, exact: true }).click();
    await toast(page, docsJa.editor.saved).waitFor();

    const planned = await app.api.call('getDocumentTasks', { token, params: { documentId: uploaded.id } });
    const sign = planned.body.data.find((task: { attributes: { order: number } }) => task.attributes.order === 2);
    expect(sign.attributes).toMatchObject({
      type: 'sign',
      signatureType: 'handwritten',
      twoFactor: 'email',
      assignee: { kind: 'one_time_user', name: '山田 花子' },
    });
    await screenshot(page, 'one-time-task-editor-saved-ja-1280');
  });
});

/** Every screen of this feature in both languages at both widths, for a person to look at. */
describe.each([
  ['ja', DESKTOP],
  ['ja', MOBILE],
  ['en', DESKTOP],
  ['en', MOBILE],
] as [Language, Viewport][])('screens in %s at %o', (language, viewport) => {
  it(
    'shows the invite dialog, the invitation list, the QR screen, the workspace one-time users and a guest task',
    {
      timeout: 90_000,
    },
    async () => {
      const t = TEXT[language];
      const size = viewport.width;
      const name = (screen: string) => `one-time-${screen}-${language}-${size}`;
      const { token, page, businessFlowId, workspaceId, groupId } = await ownerWithFlow({ language, viewport });
      const guest = await inviteByApi(token, businessFlowId, {
        channel: 'email',
        name: '山田 花子',
        email: `hanako-${language}-${size}@example.com`,
      });
      const other = await inviteByApi(token, businessFlowId, {
        channel: 'email',
        name: 'John Smith',
        email: `john-${language}-${size}@example.com`,
        locale: 'en',
      });
      await app.api.call('cancelOneTimeInvitation', {
        token,
        params: { invitationId: other.id },
        body: { data: { type: 'OneTimeInvitation', attributes: { lockVersion: other.attributes.lockVersion } } },
      });
      await inviteByApi(token, businessFlowId, { channel: 'qr' });

      await openFlow(page, businessFlowId);
      const table = panel(page, language);
      await table.getByRole('cell', { name: 'John Smith', exact: true }).waitFor();
      await table.getByText(t.statuses.cancelled, exact).waitFor();
      await fitsWidth(page);
      await page.getByRole('heading', { name: t.flow.title }).scrollIntoViewIfNeeded();
      await screenshot(page, name('invitation-list'));

      await page.getByRole('button', { name: t.flow.invite, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t.invite.title });
      await dialog.getByLabel(t.invite.name, exact).fill('佐藤 一郎');
      await windowShot(page, name('invite-dialog'));
      await dialog.getByRole('button', { name: t.invite.close, exact: true }).click();

      await table.getByRole('button', { name: fill(t.flow.showQrLabel, { who: t.qrGuest }), exact: true }).click();
      const screen = page.getByRole('dialog', { name: t.qr.title });
      await screen.getByRole('img', { name: t.qr.imageAlt, exact: true }).waitFor();
      await windowShot(page, name('qr-screen'));
      await screen.getByRole('button', { name: t.qr.close, exact: true }).click();

      await page.goto(`/organizations/workspaces/${workspaceId}`);
      const users = page.getByRole('region', { name: t.workspace.tableLabel, exact: true });
      await users.getByRole('cell', { name: '山田 花子', exact: true }).waitFor();
      await users.scrollIntoViewIfNeeded();
      await fitsWidth(page);
      await screenshot(page, name('workspace-users'));

      const uploaded = await uploadPdf(app, token, businessFlowId, { name: '業務委託契約書' });
      await markScanned(app, uploaded.id);
      const tasks = [
        { order: 1, type: 'approve', assignee: { kind: 'group', groupId }, required: true },
        {
          order: 2,
          type: 'sign',
          assignee: { kind: 'one_time_user', oneTimeUserId: guest.attributes.oneTimeUserId },
          required: true,
          signatureType: 'handwritten',
          twoFactor: 'email',
        },
      ];
      const planned = await app.api.call('replaceDocumentTasks', {
        token,
        params: { documentId: uploaded.id },
        body: { data: { type: 'DocumentTasks', attributes: { lockVersion: uploaded.attributes.lockVersion, tasks } } },
      });
      expect(planned.status, JSON.stringify(planned.body)).toBe(200);
      await page.goto(`/organizations/documents/${uploaded.id}`);
      await heading(page, '業務委託契約書');
      const guestRow = page.getByRole('group', { name: fill(DOCS[language].editor.rowLabel, { row: 2 }), exact: true });
      await guestRow.waitFor();
      await expect
        .poll(() => guestRow.getByLabel(DOCS[language].editor.assignee, exact).inputValue())
        .toBe(`one_time_user:${guest.attributes.oneTimeUserId}`);
      await guestRow.scrollIntoViewIfNeeded();
      await fitsWidth(page);
      await screenshot(page, name('task-editor'));

      // Once a task is done the plan is fixed: the table names the guest with their address.
      const detail = await app.api.call('getDocument', { token, params: { documentId: uploaded.id } });
      const first = detail.body.data.attributes.tasks.find((task: { order: number }) => task.order === 1);
      const approved = await app.api.call('approveTask', {
        token,
        params: { taskId: first.id },
        body: { data: { type: 'TaskExecution', attributes: {} } },
      });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      await page.reload();
      const taskTable = page.getByRole('region', { name: DOCS[language].editor.tableLabel, exact: true });
      const cell = taskTable
        .getByRole('cell')
        .filter({ hasText: fill(DOCS[language].editor.guestOptionName, { name: '山田 花子' }) })
        .filter({ hasText: `hanako-${language}-${size}@example.com` });
      await cell.waitFor();
      await cell.scrollIntoViewIfNeeded();
      await fitsWidth(page);
      await screenshot(page, name('task-list'));
    },
  );
});
