import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '../../core/plugins/index.ts';
import { mailPlugin } from '../../plugins/mail/index.ts';
import ja from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import tasksJa from '../../web/src/features/tasks/i18n/ja.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  landedOn,
  MOBILE,
  screenshot,
  signUpOrganization,
  TEXTS,
  toast,
  useApp,
  useBrowser,
  type Viewport,
} from '../helpers/browser.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { buildPdf } from '../helpers/pdf.ts';

// The document screens in chromium against the real service. The malware-scan plugin is left out of this app, so
// a version stays "being scanned" until the test records the verdict (markScanned) — the screens' waiting is shown.

const app = useApp({ plugins: [mailPlugin as Plugin<never>] });
const browser = useBrowser();
const errors = TEXTS.ja.errors as Record<string, string>;

/** Org A's owner signed in on `path` (opened later), with a workspace (A's first group, and B as partner) and a flow. */
async function ownerWithFlow(viewport?: Viewport) {
  const { org, token, page } = await browser.openAsOwner({ app, viewport });
  const partner = await signUpOrganization(app, { organizationName: '株式会社取引先' });
  const groupId = await firstGroupId(app, org.organizationId);
  const group = await app.service.deps.knex('groups').where({ id: groupId }).first('name');
  const seeded = await seedBusinessFlow(app, {
    organizationId: org.organizationId,
    groupId,
    createdBy: org.ownerId,
    partner: { organizationId: partner.organizationId },
  });
  return { org, token, page, partner, groupId, groupName: group.name as string, ...seeded };
}

/** The task editor's fieldset of row `row` (1-based). */
const taskRow = (page: Page, row: number) => page.getByRole('group', { name: `${row}行目`, exact: true });

async function openDocument(page: Page, documentId: string, name: string) {
  await page.goto(`/organizations/documents/${documentId}`);
  await heading(page, name);
}

describe('document screens', () => {
  it('previews a PDF before upload, refuses a non-PDF by content, uploads it and shows the scan notice until the scan is clean', async () => {
    const { token, page, businessFlowId } = await ownerWithFlow();
    await page.goto(`/organizations/business-flows/${businessFlowId}/documents/new`);
    await heading(page, ja.upload.title);
    const file = page.getByLabel(ja.upload.fileLabel, exact);

    await file.setInputFiles({
      name: 'setup.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('MZ\x90\x00 not a pdf'),
    });
    await page.getByText(errors.FILE_TYPE_NOT_ALLOWED!.replace('{{allowed}}', 'PDF'), exact).waitFor();

    const pdf = await buildPdf({ pages: 2 });
    await file.setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.locator('canvas[data-rendered-page="1"]').waitFor();
    await page.getByText('1 / 2 ページ', exact).waitFor();
    await page.getByRole('button', { name: ja.viewer.next, exact: true }).click();
    await page.locator('canvas[data-rendered-page="2"]').waitFor();
    await page.getByText('2 / 2 ページ', exact).waitFor();
    expect(await page.getByLabel(ja.upload.name, exact).inputValue()).toBe('contract');
    await screenshot(page, 'documents-upload-preview');

    await page.getByLabel(ja.upload.name, exact).fill('売買契約書');
    await page.getByLabel(ja.upload.documentType, exact).selectOption({ label: ja.types.purchase_order });
    await page.getByRole('button', { name: ja.upload.submit, exact: true }).click();
    const url = await landedOn(page, /^\/organizations\/documents\/[0-9a-f-]{36}$/);
    const documentId = url.pathname.split('/').pop()!;
    await heading(page, '売買契約書');
    await page.getByText(ja.scan.beingScanned, exact).waitFor();

    const stored = await app.api.call('getDocument', { token, params: { documentId } });
    expect(stored.body.data.attributes).toMatchObject({
      name: '売買契約書',
      documentType: 'purchase_order',
      currentVersion: { version: 1, fileName: 'contract.pdf', scanStatus: 'pending' },
    });

    await markScanned(app, documentId);
    await page.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 20_000 });
    expect(await page.getByText(ja.scan.beingScanned, exact).count()).toBe(0);
    await screenshot(page, 'documents-detail-clean');
  });

  it('edits tasks: a second order-1 task is refused with the rule message on its row, a valid plan is saved', async () => {
    const { token, page, businessFlowId, groupName } = await ownerWithFlow();
    const uploaded = await uploadPdf(app, token, businessFlowId, { name: '発注書' });
    await markScanned(app, uploaded.id);
    await openDocument(page, uploaded.id, '発注書');

    const first = taskRow(page, 1);
    await first.getByLabel(ja.editor.assignee, exact).selectOption({ label: `グループ：${groupName}` });
    await page.getByRole('button', { name: ja.editor.add, exact: true }).click();
    const second = taskRow(page, 2);
    await second.getByLabel(ja.editor.order, exact).fill('1');
    await second.getByLabel(ja.editor.assignee, exact).selectOption({ label: 'グループ：' + groupName });
    await page.getByRole('button', { name: ja.editor.save, exact: true }).click();
    await second.getByText(errors.TASK_ORDER_ONE_NOT_UNIQUE!, exact).waitFor();
    expect(await second.getByLabel(ja.editor.order, exact).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'documents-task-rule-error');

    await second.getByLabel(ja.editor.order, exact).fill('2');
    await second.getByLabel(ja.editor.type, exact).selectOption({ label: ja.taskTypes.read });
    await second.getByLabel(ja.editor.assignee, exact).selectOption({ label: '取引先：株式会社取引先' });
    await page.getByRole('button', { name: ja.editor.save, exact: true }).click();
    await toast(page, ja.editor.saved).waitFor();

    const stored = await app.api.call('getDocument', { token, params: { documentId: uploaded.id } });
    const tasks = stored.body.data.attributes.tasks as { order: number; type: string; assignee: { kind: string } }[];
    expect(tasks.map((task) => [task.order, task.type, task.assignee.kind])).toEqual([
      [1, 'approve', 'group'],
      [2, 'read', 'organization'],
    ]);
  });

  it('the remand dialog needs a reason and sends the document back to the chosen earlier order', async () => {
    const { token, page, businessFlowId, groupId } = await ownerWithFlow();
    const uploaded = await uploadPdf(app, token, businessFlowId, { name: '請求書' });
    await markScanned(app, uploaded.id);
    const tasks = [1, 2, 3].map((order) => ({
      order,
      type: 'approve',
      assignee: { kind: 'group', groupId },
      required: true,
    }));
    const planned = await app.api.call('replaceDocumentTasks', {
      token,
      params: { documentId: uploaded.id },
      body: { data: { type: 'DocumentTasks', attributes: { lockVersion: uploaded.attributes.lockVersion, tasks } } },
    });
    expect(planned.status).toBe(200);
    for (const order of [1, 2]) {
      const detail = await app.api.call('getDocument', { token, params: { documentId: uploaded.id } });
      const task = detail.body.data.attributes.tasks.find((t: { order: number }) => t.order === order);
      expect(
        (
          await app.api.call('approveTask', {
            token,
            params: { taskId: task.id },
            body: { data: { type: 'TaskExecution', attributes: {} } },
          })
        ).status,
      ).toBe(200);
    }

    await openDocument(page, uploaded.id, '請求書');
    await page.getByRole('button', { name: ja.actions.remand, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ja.actions.remandTitle });
    const target = dialog.getByLabel(ja.actions.remandTo, exact);
    expect(await target.locator('option').allTextContents()).toEqual(['順番1', '順番2']);
    await dialog.getByRole('button', { name: ja.actions.remand, exact: true }).click();
    await dialog.getByText(ja.actions.reasonRequired, exact).waitFor();

    await target.selectOption({ label: '順番2' });
    await dialog.getByLabel(ja.actions.remandReason, exact).fill('金額に誤りがあります');
    await dialog.getByRole('button', { name: ja.actions.remand, exact: true }).click();
    await toast(page, ja.actions.remanded).waitFor();
    await page.getByText('理由：金額に誤りがあります', exact).waitFor();

    const detail = await app.api.call('getDocument', { token, params: { documentId: uploaded.id } });
    expect(detail.body.data.attributes.currentOrder).toBe(2);
  });

  it('my tasks lists the executable tasks across documents, filtered by type and searched by name', async () => {
    const { token, page, businessFlowId, groupId } = await ownerWithFlow();
    for (const [name, type] of [
      ['発注書A', 'approve'],
      ['納品書B', 'read'],
    ] as const) {
      const uploaded = await uploadPdf(app, token, businessFlowId, { name });
      const tasks = [{ order: 1, type, assignee: { kind: 'group', groupId }, required: true }];
      const planned = await app.api.call('replaceDocumentTasks', {
        token,
        params: { documentId: uploaded.id },
        body: { data: { type: 'DocumentTasks', attributes: { lockVersion: uploaded.attributes.lockVersion, tasks } } },
      });
      expect(planned.status).toBe(200);
    }
    await page.goto('/organizations/tasks');
    await heading(page, tasksJa.title);
    const table = page.getByRole('region', { name: tasksJa.tableLabel });
    await table.getByRole('link', { name: '発注書A', exact: true }).waitFor();
    await table.getByRole('link', { name: '納品書B', exact: true }).waitFor();
    expect(await table.getByText(tasksJa.scanning, exact).count()).toBe(2);

    await page.getByLabel(tasksJa.typeFilter, exact).selectOption({ label: tasksJa.types.read });
    await expect.poll(() => table.getByRole('link').allTextContents()).toEqual(['納品書B']);
    await page.getByLabel(tasksJa.typeFilter, exact).selectOption({ label: tasksJa.allTypes });
    await page.getByLabel(tasksJa.search, exact).fill('発注');
    await expect.poll(() => table.getByRole('link').allTextContents()).toEqual(['発注書A']);
    await table.getByRole('link', { name: '発注書A', exact: true }).click();
    await heading(page, '発注書A');
  });

  it('is usable at 360 px: the detail and the task editor fit the width', async () => {
    const { token, page, businessFlowId } = await ownerWithFlow(MOBILE);
    const uploaded = await uploadPdf(app, token, businessFlowId, { name: '見積書' });
    await markScanned(app, uploaded.id);
    await openDocument(page, uploaded.id, '見積書');
    await page.locator('canvas[data-rendered-page="1"]').waitFor();
    await taskRow(page, 1).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'documents-detail-360');
  });
});
