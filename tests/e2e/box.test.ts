import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import en from '../../web/src/features/box/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/box/i18n/ja.json' with { type: 'json' };
import { signIn } from '../helpers/accounts.ts';
import { exact, heading, landedOn, TEXTS, toast, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';
import { groupTask, newDocument, plan, seedTaskWorld, step, type TaskWorld } from '../helpers/tasks.ts';
import { BoxApiDouble } from '../peers/box-api.ts';

// Box in chromium against the real service and the local double of Box's API (tests/peers/box-api.ts), whose
// authorization page approves at once and sends the browser back to /box/callback with code and state: an
// administrator connects, picks a folder, sees completed documents uploaded and, once Box revokes the tokens, the
// spec's "Box authentication failure"; connects again, sends a document by hand, disconnects.

let box: BoxApiDouble;
beforeAll(async () => {
  box = await BoxApiDouble.start();
});
afterAll(() => box?.close());

const app = useApp(() => ({
  env: { ...box.env(), KEIYAKU_PLUGIN_BOX_RETRY_LIMIT: '1', KEIYAKU_PLUGIN_BOX_RETRY_DELAY_SECONDS: '1' },
  // The scan verdict is the test's (newDocument records it).
  plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
}));
const browser = useBrowser();
const errors = TEXTS.ja.errors;
const SETTINGS = '/organizations/settings/box';
/** Names the test puts into the data (the seeded workspace, Box's own root name). */
const ALLOW = ['Deals with B', 'All Files'];

/** A document of the world's flow that A's owner completes by approving its one task. */
async function completedDocument(w: TaskWorld, name: string) {
  const documentId = await newDocument(app, w.ownerA.token, w.flowId, 'clean', name);
  const [task] = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1)]);
  const approved = await step(app, w.ownerA.token, 'approveTask', task!.id);
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return documentId;
}

/** The row of the recent uploads table naming the document. */
const uploadRow = (page: Page, name: string) => page.locator('.box-uploads-table tbody tr').filter({ hasText: name });

/** Reloads the settings screen until the document's row shows `status` (uploads run in a job). */
async function waitForRow(page: Page, name: string, status: string) {
  await expect
    .poll(
      async () => {
        await page.reload();
        await heading(page, ja.settings.title);
        await page.getByRole('heading', { name: ja.uploads.title, exact: true }).waitFor();
        return (await uploadRow(page, name).count()) > 0 ? uploadRow(page, name).locator('.badge').textContent() : null;
      },
      { timeout: 60_000, interval: 1000 },
    )
    .toBe(status);
}

describe('Box', () => {
  let w: TaskWorld;
  let session: { authorizationToken: string; refreshToken: string };

  beforeAll(async () => {
    w = await seedTaskWorld(app, { plan: 'standard' });
    session = await signIn(app, w.ownerA.loginId, w.ownerA.password);
    const contracts = box.addFolder('契約書保管');
    box.addFolder('2026年度', contracts);
    box.addFolder('経理');
  });

  it('an administrator connects, picks a folder, sees uploads and the authentication failure, and disconnects', async () => {
    const page = await browser.openSignedIn({ app, session, path: SETTINGS, heading: ja.settings.title });
    await page.getByRole('link', { name: TEXTS.ja.common.settings.sections.box, exact: true }).waitFor();
    await page.getByText(ja.settings.notConnected, exact).waitFor();
    await captureScreens(page, 'box-settings-not-connected', { allow: ALLOW });

    // Box's authorization page approves at once and sends the browser back to /box/callback.
    await page.getByRole('button', { name: ja.settings.connect, exact: true }).click();
    await landedOn(page, SETTINGS);
    await toast(page, ja.settings.connectedToast).waitFor();
    await page.getByTestId('box-connected').filter({ hasText: box.user.login }).waitFor();
    await expect.poll(() => page.getByTestId('box-root-folder').textContent()).toBe(ja.folder.root);

    // The picker: into 契約書保管, into 2026年度, back up through the breadcrumbs, choose 契約書保管.
    await page.getByRole('button', { name: ja.folder.change, exact: true }).click();
    const picker = page.getByRole('group', { name: ja.folder.pickerLabel });
    await picker.getByRole('button', { name: '契約書保管を開く', exact: true }).click();
    await picker.getByRole('button', { name: '2026年度を開く', exact: true }).click();
    await picker.getByText(ja.folder.empty, exact).waitFor();
    await captureScreens(page, 'box-settings-picker', { allow: ALLOW });
    await picker.getByRole('navigation').getByRole('button', { name: '契約書保管', exact: true }).click();
    await picker.getByRole('button', { name: '2026年度を開く', exact: true }).waitFor();
    await picker.getByRole('button', { name: ja.folder.choose, exact: true }).click();
    await toast(page, '保存先を「契約書保管」に変更しました。').waitFor();
    await expect.poll(() => page.getByTestId('box-root-folder').textContent()).toBe('契約書保管');
    await page
      .getByText('書類は「契約書保管／ワークスペース名／業務フロー名／」に保存されます。', { exact: false })
      .waitFor();

    // A completed document goes to 契約書保管/Deals with B/売買契約 2026/.
    const done = await completedDocument(w, '業務委託契約書');
    await waitForRow(page, '業務委託契約書', ja.statuses.done);
    const root = [...box.folders.values()].find((f) => f.name === '契約書保管')!;
    const workspace = box.childrenOf(root.id).find((f) => f.name === 'Deals with B')!;
    const flowFolder = box.childrenOf(workspace.id).find((f) => f.name === '売買契約 2026')!;
    expect(box.childrenOf(flowFolder.id).length).toBe(2);
    await captureScreens(page, 'box-settings-connected', { allow: ALLOW });

    const documentPage = await browser.openSignedIn({ app, session, path: `/organizations/documents/${done}` });
    await heading(documentPage, '業務委託契約書');
    const panel = documentPage.getByTestId('document-box');
    await panel.locator('.badge').filter({ hasText: ja.statuses.done }).waitFor();
    await panel.getByRole('button', { name: ja.panel.sendAgain, exact: true }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await captureScreens(documentPage, 'box-document-panel', { allow: ALLOW });

    // Box revokes the tokens (the user removed the application): the next upload fails with the spec's error.
    box.revokeAll();
    const failed = await completedDocument(w, '秘密保持契約書');
    await waitForRow(page, '秘密保持契約書', ja.statuses.failed);
    await uploadRow(page, '秘密保持契約書').getByText(errors.BOX_AUTH_FAILED, exact).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: ja.settings.authFailedTitle });
    await alert.getByText(ja.settings.authFailed, exact).waitFor();
    await page.getByRole('button', { name: ja.settings.reconnect, exact: true }).waitFor();
    await captureScreens(page, 'box-settings-auth-failed', { allow: ALLOW });

    await documentPage.goto(`/organizations/documents/${failed}`);
    await heading(documentPage, '秘密保持契約書');
    await panel.getByTestId('box-upload-error').getByText(errors.BOX_AUTH_FAILED, exact).waitFor();
    // Sending by hand is refused while the connection has lost its authorization (the refusal replaces the note).
    await panel.getByRole('button', { name: ja.panel.send, exact: true }).click();
    await panel.getByTestId('box-upload-error').waitFor({ state: 'hidden' });
    await panel.getByRole('alert').filter({ hasText: errors.BOX_AUTH_FAILED }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await captureScreens(documentPage, 'box-document-failed', { allow: ALLOW });

    // Connecting again, then sending the failed document by hand.
    await page.getByRole('button', { name: ja.settings.reconnect, exact: true }).click();
    await toast(page, ja.settings.connectedToast).waitFor();
    await page.getByTestId('box-connected').waitFor();
    await documentPage.reload();
    await panel.getByRole('button', { name: ja.panel.send, exact: true }).click();
    await toast(documentPage, ja.panel.queued).waitFor();
    await panel.locator('.badge').filter({ hasText: ja.statuses.done }).waitFor({ timeout: 60_000 });

    // Disconnecting asks first.
    await page.reload();
    await heading(page, ja.settings.title);
    await page.getByRole('button', { name: ja.settings.disconnect, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ja.settings.disconnect });
    await dialog.getByText(ja.settings.disconnectConfirm, exact).waitFor();
    await dialog.getByRole('button', { name: ja.settings.disconnect, exact: true }).click();
    await toast(page, ja.settings.disconnected).waitFor();
    await page.getByText(ja.settings.notConnected, exact).waitFor();
    const left = await app.service.deps.knex('box_connections').where({ organization_id: w.ownerA.organizationId });
    expect(left).toEqual([]);
  }, 240_000);

  it('tells a refused callback clearly, with the way back', async () => {
    const page = await browser.openSignedIn({ app, session, path: '/box/callback?code=abc&state=forged' });
    await heading(page, ja.callback.title);
    const alert = page.getByRole('alert').filter({ hasText: ja.callback.failed });
    await alert.getByText(errors.BOX_STATE_INVALID, exact).waitFor();
    await captureScreens(page, 'box-callback-refused');
    await page.getByRole('link', { name: ja.callback.back, exact: true }).click();
    await landedOn(page, SETTINGS);

    await page.goto('/box/callback?error=access_denied&state=x');
    await page.getByText(ja.callback.boxRefused, exact).waitFor();
  }, 120_000);

  it('shows the settings and the document panel in English', async () => {
    const englishSession = await signIn(app, w.ownerA.loginId, w.ownerA.password);
    const page = await browser.openSignedIn({
      app,
      session: englishSession,
      language: 'en',
      path: SETTINGS,
      heading: en.settings.title,
    });
    await page.getByRole('button', { name: en.settings.connect, exact: true }).click();
    await toast(page, en.settings.connectedToast).waitFor();
    await page.getByRole('heading', { name: en.uploads.title, exact: true }).waitFor();
    await uploadRow(page, '秘密保持契約書').waitFor();
    await captureScreens(page, 'box-settings-connected');

    const documentId = await app.service.deps
      .knex('documents')
      .where({ name: '業務委託契約書' })
      .first('id')
      .then((row: { id: string }) => row.id);
    await page.goto(`/organizations/documents/${documentId}`);
    await heading(page, '業務委託契約書');
    await page.getByTestId('document-box').locator('.badge').waitFor();
    await captureScreens(page, 'box-document-panel');

    await page.goto('/box/callback?code=abc&state=forged');
    await page.getByText(TEXTS.en.errors.BOX_STATE_INVALID, exact).waitFor();
    await captureScreens(page, 'box-callback-refused');
  }, 120_000);
});
