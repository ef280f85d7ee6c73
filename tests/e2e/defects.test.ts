import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import documentsEn from '../../web/src/features/documents/i18n/en.json' with { type: 'json' };
import documentsJa from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import signingEn from '../../web/src/i18n/en/signing.json' with { type: 'json' };
import signingJa from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { firstGroupId, PASSWORD, signIn, uniqueLoginId } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  landedOn,
  type Language,
  type SessionTokens,
  TEXTS,
  toast,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { activeMember, adminSession, createUser, temporaryPasswordOf } from '../helpers/org-admin.ts';
import { captureScreens } from '../helpers/screens.ts';
import { confirmEmailOf } from '../helpers/signing.ts';
import { documentRow, step } from '../helpers/tasks.ts';
import { SETTINGS_SECTIONS } from '../../web/src/components/settings-sections.ts';

// Web defects a newcomer found (issue 16, item 7), each checked in chromium. One app for the file.

const app = useApp();
const browser = useBrowser();
const ja = TEXTS.ja.common;

describe('web defects', () => {
  it('shows the 404 page, in Japanese, for an unknown /organizations/... path', async () => {
    const { page } = await browser.openAsOwner({ app, path: '/organizations/no-such-screen' });
    await heading(page, ja.fallback.notFound.heading);
    await page.getByText(ja.fallback.notFound.title, { exact: true }).waitFor();
    expect(await page.getByText(ja.comingSoon).count()).toBe(0);
    expect(ja.fallback.notFound.title).not.toMatch(/Not Found/);
    await captureScreens(page, 'defects-not-found-organizations');
  });

  it('offers a non-administrator only the settings sections they may use, and opens one of them', async () => {
    const admin = await adminSession(app);
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    const pair = await signIn(app, member.loginId, PASSWORD);
    const page = await browser.openSignedIn({ app, session: pair, path: '/organizations/settings' });
    await landedOn(page, '/organizations/settings/organization');
    const menu = page.getByRole('navigation', { name: ja.settings.menuLabel });
    await menu.getByRole('link').first().waitFor();
    const links = await menu.getByRole('link').allTextContents();
    const sections = ja.settings.sections as Record<string, string>;
    // The member's organization has no plan feature beyond the free plan's (AI-OCR's section is every member's).
    const allowed = SETTINGS_SECTIONS.filter((s) => !s.adminOnly && !('directory' in s) && !('feature' in s)).map(
      (s) => sections[s.key],
    );
    expect(links).toEqual(allowed);
    for (const hidden of ['users', 'groups', 'roles', 'logs', 'usage']) expect(links).not.toContain(sections[hidden]);
    await captureScreens(page, 'defects-settings-non-admin');
  });

  it('puts toasts below the top navigation, at 1280 and 360 px', async () => {
    const { page } = await browser.openAsOwner({ app, path: '/' });
    const header = page.locator('.app-header');
    await header.waitFor();
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      // The container react-toastify renders, with its own classes, measured against the header.
      const top = await page.evaluate(() => {
        const container = document.createElement('div');
        container.className = 'Toastify__toast-container Toastify__toast-container--top-center';
        document.body.append(container);
        const value = container.getBoundingClientRect().top;
        container.remove();
        return value;
      });
      const box = await header.boundingBox();
      expect(top, `${width}px`).toBeGreaterThanOrEqual(box!.y + box!.height - 1);
    }
  });

  it("asks an invited user's first sign-in for the terms up front as a first consent, a revision only of older terms", async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const loginId = user.attributes.loginId as string;
    const temporary = await temporaryPasswordOf(app, user.attributes.email as string);
    for (const language of ['en', 'ja'] as Language[]) {
      const auth = TEXTS[language].auth;
      const page = await browser.open({ app, language });
      await page.goto('/login');
      await page.getByLabel(auth.fields.loginId, exact).fill(loginId);
      await page.getByLabel(auth.fields.password, exact).fill(temporary);
      await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
      await landedOn(page, '/initial-password-change');
      // Before any submit: the terms, worded as a first consent (not as a revision).
      const terms = page.getByRole('region', { name: auth.terms.heading });
      await terms.getByText(auth.terms.askedFirst, exact).waitFor();
      expect(await page.getByText(auth.terms.askedAtSignIn).count()).toBe(0);
      const consent = page.getByRole('checkbox', { name: auth.terms.agree, exact: true });
      await expect.poll(() => consent.isEnabled()).toBe(true);
      await captureScreens(page, 'defects-first-sign-in-terms');
      if (language === 'en') continue;
      await page.getByLabel(auth.passwordChange.initial.currentPassword, exact).fill(temporary);
      await page.getByLabel(auth.fields.newPassword, exact).fill(PASSWORD);
      await page.getByLabel(auth.fields.newPasswordConfirmation, exact).fill(PASSWORD);
      await consent.check();
      await page.getByRole('button', { name: auth.passwordChange.submit, exact: true }).click();
      await landedOn(page, '/');
    }
    const knex = app.service.deps.knex;
    expect(await knex('term_acceptances').where({ user_id: user.id })).toHaveLength(1);

    // A user who agreed to an older version only is asked to agree to the revision.
    const [older] = await knex('terms')
      .insert({
        version: `e2e-older-${process.pid}`,
        title_ja: '旧利用規約',
        title_en: 'Older terms',
        body_ja: '旧版です。',
        body_en: 'Older.',
        effective_at: new Date('2000-01-01T00:00:00Z'),
      })
      .returning('id');
    await knex('term_acceptances').where({ user_id: user.id }).delete();
    await knex('term_acceptances').insert({ user_id: user.id, term_id: older.id, accepted_at: new Date('2000-01-02') });
    const auth = TEXTS.ja.auth;
    const page = await browser.open({ app });
    await page.goto('/login');
    await page.getByLabel(auth.fields.loginId, exact).fill(loginId);
    await page.getByLabel(auth.fields.password, exact).fill(PASSWORD);
    await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
    await page.getByText(auth.terms.askedAtSignIn, exact).waitFor();
    expect(await page.getByText(auth.terms.askedFirst).count()).toBe(0);
    const revised = page.getByRole('checkbox', { name: auth.terms.agreeRevised, exact: true });
    await expect.poll(() => revised.isEnabled()).toBe(true);
    await revised.check();
    await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
    await landedOn(page, '/');
  });

  it('confirms 書類を取り消す, set apart from 承認する, naming the document and that its tasks end for good', async () => {
    const { session, documentId } = await approvalDocument('取引基本契約書');
    const page = await browser.openSignedIn({ app, session, path: `/organizations/documents/${documentId}` });
    await heading(page, '取引基本契約書');
    const actions = page.getByRole('region', { name: documentsJa.actions.title });
    const approve = actions.getByRole('button', { name: documentsJa.actions.approve, exact: true });
    const cancel = actions.getByRole('button', { name: documentsJa.actions.cancelDocument, exact: true });
    // Apart: its own row below the positive actions, not a neighbour in the same row.
    const [approveBox, cancelBox] = [(await approve.boundingBox())!, (await cancel.boundingBox())!];
    expect(cancelBox.y).toBeGreaterThanOrEqual(approveBox.y + approveBox.height + 8);
    expect(await approve.evaluate((a, c) => a.parentElement === c!.parentElement, await cancel.elementHandle())).toBe(
      false,
    );

    await cancel.click();
    const dialog = page.getByRole('dialog', {
      name: documentsJa.actions.cancelDocumentTitle.replace('{{name}}', '取引基本契約書'),
    });
    await dialog.getByText(documentsJa.actions.cancelDocumentBody, exact).waitFor();
    await captureScreens(page, 'defects-cancel-document-confirm', { allow: ['取引基本契約書'] });
    // Keeping the document closes the dialog and changes nothing.
    await dialog.getByRole('button', { name: documentsJa.actions.keepDocument, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await documentRow(app, documentId)).status).toBe('in_progress');

    await cancel.click();
    await dialog.getByLabel(documentsJa.actions.cancelReason, exact).fill('条件が変わったため');
    await dialog.getByRole('button', { name: documentsJa.actions.cancelDocument, exact: true }).click();
    await toast(page, documentsJa.actions.cancelled).waitFor();
    expect((await documentRow(app, documentId)).status).toBe('cancelled');

    // The dialog in English.
    const other = await approvalDocument('Master agreement');
    const en = await browser.openSignedIn({
      app,
      session: other.session,
      language: 'en',
      path: `/organizations/documents/${other.documentId}`,
    });
    await heading(en, 'Master agreement');
    await en
      .getByRole('region', { name: documentsEn.actions.title })
      .getByRole('button', { name: documentsEn.actions.cancelDocument, exact: true })
      .click();
    await en
      .getByRole('dialog', { name: documentsEn.actions.cancelDocumentTitle.replace('{{name}}', 'Master agreement') })
      .getByText(documentsEn.actions.cancelDocumentBody, exact)
      .waitFor();
    await captureScreens(en, 'defects-cancel-document-confirm');
  });

  it('shows every column of the task table at 1280 px and scrolls it inside its region at 360 px', async () => {
    const { session, documentId } = await approvalDocument('業務委託契約書（第二版）');
    const page = await browser.openSignedIn({ app, session, path: `/organizations/documents/${documentId}` });
    await heading(page, '業務委託契約書（第二版）');
    const region = page.getByRole('region', { name: documentsJa.editor.tableLabel });
    const status = region.getByRole('cell', { name: documentsJa.taskStatuses.completed, exact: true });
    await status.waitFor();
    const fits = () =>
      region.evaluate((element) => {
        const cell = [...element.querySelectorAll('td.cell-status')][0] as HTMLElement;
        const box = element.getBoundingClientRect();
        const cellBox = cell.getBoundingClientRect();
        return {
          cellScroll: cell.scrollWidth,
          cellClient: cell.clientWidth,
          regionScroll: element.scrollWidth,
          regionClient: element.clientWidth,
          cellInside: cellBox.right <= box.right + 0.5,
          pageScroll: document.documentElement.scrollWidth,
          viewport: window.innerWidth,
          columns: [...element.querySelectorAll('thead th')].map((th) => Math.round(th.getBoundingClientRect().width)),
        };
      });
    await page.setViewportSize({ width: 1280, height: 800 });
    const wide = await fits();
    expect(wide.cellScroll, JSON.stringify(wide)).toBeLessThanOrEqual(wide.cellClient);
    expect(wide.regionScroll, JSON.stringify(wide)).toBeLessThanOrEqual(wide.regionClient);
    expect(wide.cellInside, JSON.stringify(wide)).toBe(true);
    await page.setViewportSize({ width: 360, height: 740 });
    const narrow = await fits();
    // The page itself does not scroll sideways: the table does, inside its region.
    expect(narrow.pageScroll, JSON.stringify(narrow)).toBeLessThanOrEqual(narrow.viewport);
    expect(narrow.regionScroll, JSON.stringify(narrow)).toBeGreaterThan(narrow.regionClient);
    expect(await region.evaluate((element) => getComputedStyle(element).overflowX)).toBe('auto');
    await page.setViewportSize({ width: 1280, height: 800 });
    await captureScreens(page, 'defects-task-table', { allow: ['業務委託契約書（第二版）'] });

    // English words are longer: every column still shows at 1280 px.
    const en = await browser.openSignedIn({
      app,
      session,
      language: 'en',
      path: `/organizations/documents/${documentId}`,
    });
    await heading(en, '業務委託契約書（第二版）');
    // (In English the panel and the table region are both named "Tasks".)
    const enRegion = en.locator('.table-scroll', { has: en.locator('.tasks-table') });
    await enRegion.getByRole('cell', { name: documentsEn.taskStatuses.completed, exact: true }).waitFor();
    const enSizes = await enRegion.evaluate((element) => [
      element.scrollWidth,
      element.clientWidth,
      ...[...element.querySelectorAll('th, tbody tr:first-child td')].map(
        (cell) =>
          `${cell.textContent}:${Math.round(cell.getBoundingClientRect().width)}:${getComputedStyle(cell).whiteSpace}`,
      ),
    ]);
    expect(enSizes[0], JSON.stringify(enSizes)).toBeLessThanOrEqual(enSizes[1] as number);
    await captureScreens(en, 'defects-task-table');
  });

  it('leads from the signing screen to register a seal image and back to the signing screen', async () => {
    const { session, documentId, taskId } = await signTaskDocument();
    const signing = `/organizations/documents/${documentId}/tasks/${taskId}/sign`;
    const page = await browser.openSignedIn({ app, session, path: signing });
    await heading(page, signingJa.sign.title);
    const manage = page.getByRole('link', { name: signingJa.placements.sealManage, exact: true });
    const href = new URL((await manage.getAttribute('href'))!, app.url);
    expect(href.pathname).toBe('/organizations/settings/seal-images');
    expect(href.searchParams.get('returnTo')).toBe(signing);
    await manage.click();
    await heading(page, signingJa.sealImages.title);
    await page.getByText(signingJa.sealImages.returnHint, exact).waitFor();
    const back = page.getByRole('link', { name: signingJa.sealImages.returnToSigning, exact: true });
    expect(await back.count()).toBe(0);
    await page.getByLabel(signingJa.sealImages.file, exact).setInputFiles({
      name: 'seal.png',
      mimeType: 'image/png',
      buffer: sealPng(),
    });
    await page.getByLabel(signingJa.sealImages.name, exact).fill('山田の印');
    await page.getByRole('button', { name: signingJa.sealImages.upload, exact: true }).click();
    await toast(page, signingJa.sealImages.uploaded).waitFor();
    await page.getByText(signingJa.sealImages.returnReady, exact).waitFor();
    await captureScreens(page, 'defects-seal-return', { allow: ['山田の印'] });
    await back.click();
    await landedOn(page, signing);
    await heading(page, signingJa.sign.title);
    await page.getByLabel(signingJa.placements.sealSelect, exact).waitFor();

    // English, and a returnTo that is not a signing screen of this site shows no way "back" to it.
    const en = await browser.openSignedIn({
      app,
      session,
      language: 'en',
      path: `/organizations/settings/seal-images?returnTo=${encodeURIComponent(signing)}`,
    });
    await heading(en, signingEn.sealImages.title);
    await en.getByRole('link', { name: signingEn.sealImages.returnToSigning, exact: true }).waitFor();
    await captureScreens(en, 'defects-seal-return', { allow: ['山田の印'] });
    for (const returnTo of [
      '//evil.example/organizations/documents/a/tasks/b/sign',
      'https://evil.example/organizations/documents/a/tasks/b/sign',
      '/organizations/settings/users',
      '/\\evil.example/x',
    ]) {
      await en.goto(`/organizations/settings/seal-images?returnTo=${encodeURIComponent(returnTo)}`);
      await heading(en, signingEn.sealImages.title);
      await en.getByRole('region', { name: signingEn.sealImages.listTitle }).waitFor();
      expect(await en.getByText(signingEn.sealImages.returnReady).count(), returnTo).toBe(0);
      expect(await en.getByRole('link', { name: signingEn.sealImages.returnToSigning }).count(), returnTo).toBe(0);
    }
  });
});

/** A red circle on a transparent square, as a PNG: the seal image the user uploads. */
function sealPng(size = 96): Buffer {
  const png = new PNG({ width: size, height: size });
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inside = (x - r) ** 2 + (y - r) ** 2 <= (r - 2) ** 2;
      png.data[i] = 200;
      png.data[i + 1] = 30;
      png.data[i + 2] = 30;
      png.data[i + 3] = inside ? 255 : 0;
    }
  }
  return PNG.sync.write(png);
}

/** A new organization's owner signed in, its first group's workspace and flow, and a scanned PDF named `name`. */
async function ownerDocument(name: string) {
  const admin = await adminSession(app);
  const groupId = await firstGroupId(app, admin.organizationId);
  const { businessFlowId } = await seedBusinessFlow(app, {
    organizationId: admin.organizationId,
    groupId,
    createdBy: admin.ownerId,
    name: `flow-${uniqueLoginId('f')}`,
  });
  const uploaded = await uploadPdf(app, admin.token, businessFlowId, { name });
  await markScanned(app, uploaded.id);
  const lockVersion = (await app.api.call('getDocument', { token: admin.token, params: { documentId: uploaded.id } }))
    .body.data.attributes.lockVersion as number;
  const session: SessionTokens = await signIn(app, admin.loginId, PASSWORD);
  return { admin, groupId, documentId: uploaded.id as string, lockVersion, session };
}

/**
 * A document of two approve tasks for the owner's group, the first already approved: the task table (not the
 * editor) with a finished and an open task, and the owner's open task to approve or cancel.
 */
async function approvalDocument(name: string) {
  const { admin, groupId, documentId, lockVersion, session } = await ownerDocument(name);
  const task = (order: number) => ({ order, type: 'approve', assignee: { kind: 'group', groupId }, required: true });
  const planned = await app.api.call('replaceDocumentTasks', {
    token: admin.token,
    params: { documentId },
    body: { data: { type: 'DocumentTasks', attributes: { lockVersion, tasks: [task(1), task(2)] } } },
  });
  expect(planned.status, JSON.stringify(planned.body)).toBe(200);
  const approved = await step(app, admin.token, 'approveTask', planned.body.data[0].id as string);
  expect(approved.status, JSON.stringify(approved.body)).toBeLessThan(300);
  return { session, token: admin.token, documentId };
}

/** A document whose one task is the owner's group's sign task (business-operator signature, e-mail code). */
async function signTaskDocument() {
  const { admin, groupId, documentId, lockVersion, session } = await ownerDocument('秘密保持契約書');
  await confirmEmailOf(app, admin.ownerId);
  const planned = await app.api.call('replaceDocumentTasks', {
    token: admin.token,
    params: { documentId },
    body: {
      data: {
        type: 'DocumentTasks',
        attributes: {
          lockVersion,
          tasks: [
            {
              order: 1,
              type: 'sign',
              assignee: { kind: 'group', groupId },
              required: true,
              signatureType: 'operator',
              twoFactor: 'email',
            },
          ],
        },
      },
    },
  });
  expect(planned.status, JSON.stringify(planned.body)).toBe(200);
  return { session, documentId, taskId: planned.body.data[0].id as string };
}
