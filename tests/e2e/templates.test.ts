import { describe, expect, it } from 'vitest';
import ja from '../../web/src/features/templates/i18n/ja.json' with { type: 'json' };
import { exact, screenshot, TEXTS, UI_TIMEOUT, useApp, useBrowser } from '../helpers/browser.ts';

// The template screens in chromium against the real service; the API checks what the server stored.

const app = useApp();
const browser = useBrowser();
const errors = TEXTS.ja.errors as Record<string, string>;

async function openScreen() {
  const { org, token, page } = await browser.openAsOwner({
    app,
    overrides: { organizationName: 'テンプレ画面株式会社' },
    plan: 'standard', // templates are a standard-plan feature
    path: '/organizations/templates',
    heading: ja.title,
  });
  return { org, token, page };
}

describe('template screens', () => {
  it('creates a document template with a task, then a business flow template that uses it', async () => {
    const { token, page } = await openScreen();
    await page.getByText(ja.list.emptyDocuments, exact).waitFor();
    await page.getByRole('button', { name: ja.list.createDocument, exact: true }).click();
    await page.getByLabel(ja.fields.name, exact).fill('売買契約書');
    await page.getByLabel(ja.fields.systemLinkId, exact).fill('SALES');
    await page.getByLabel(ja.fields.documentType, exact).selectOption({ label: ja.documentTypes.invoice });
    await page.getByRole('button', { name: ja.tasks.add, exact: true }).click();
    const row1 = (field: string) => `${field}（1行目）`;
    await page.getByLabel(row1(ja.tasks.type), exact).selectOption({ label: ja.taskTypes.approve });
    await page.getByLabel(row1(ja.tasks.group), exact).selectOption({ label: 'テンプレ画面株式会社' });
    await page.getByLabel(row1(ja.tasks.templateId), exact).fill('APPROVE-1');
    await page.getByRole('button', { name: ja.form.create, exact: true }).click();
    await page.getByRole('cell', { name: '売買契約書', exact: true }).waitFor({ timeout: UI_TIMEOUT });

    const documents = await app.api.call('listDocumentTemplates', { token });
    const document = documents.body.data[0];
    expect(document.attributes).toMatchObject({ name: '売買契約書', systemLinkId: 'SALES', documentType: 'invoice' });
    expect(document.attributes.tasks).toEqual([
      expect.objectContaining({ order: 1, type: 'approve', required: true, templateId: 'APPROVE-1' }),
    ]);

    await page.getByRole('tab', { name: ja.tabs.flows, exact: true }).click();
    await page.getByText(ja.list.emptyFlows, exact).waitFor();
    await page.getByRole('button', { name: ja.list.createFlow, exact: true }).click();
    await page.getByLabel(ja.fields.name, exact).fill('取引一式');
    await page.getByRole('button', { name: ja.documents.add, exact: true }).click();
    await page.getByLabel(`${ja.documents.template}（1行目）`, exact).selectOption({ label: '売買契約書' });
    await page.getByLabel(`${ja.documents.templateId}（1行目）`, exact).fill('CONTRACT');
    await page.getByRole('button', { name: ja.form.create, exact: true }).click();
    await page.getByRole('cell', { name: '取引一式', exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await screenshot(page, 'templates-flow-created');

    const flows = await app.api.call('listBusinessFlowTemplates', { token });
    expect(flows.body.data[0].attributes).toMatchObject({
      name: '取引一式',
      autoComplete: true,
      documents: [{ documentTemplateId: document.id, templateId: 'CONTRACT', name: '売買契約書' }],
    });
  });

  it('shows the reload notice when another user changed the template (409), and reloads it', async () => {
    const { token, page } = await openScreen();
    const created = await app.api.call('createDocumentTemplate', {
      token,
      body: { data: { type: 'DocumentTemplate', attributes: { name: '見積書' } } },
    });
    expect(created.status).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: ja.list.editLabel.replace('{{name}}', '見積書'), exact: true }).click();
    const other = await app.api.call('updateDocumentTemplate', {
      token,
      params: { documentTemplateId: created.body.data.id },
      body: { data: { type: 'DocumentTemplate', attributes: { lockVersion: 0, name: '見積書(別の人)' } } },
    });
    expect(other.status).toBe(200);
    await page.getByLabel(ja.fields.name, exact).fill('見積書(私)');
    await page.getByRole('button', { name: ja.form.save, exact: true }).click();
    await page.getByText(errors.UPDATED_BY_ANOTHER_USER!, exact).waitFor();
    await page.getByRole('button', { name: '再読み込み', exact: true }).click();
    await expect.poll(() => page.getByLabel(ja.fields.name, exact).inputValue()).toBe('見積書(別の人)');
  });
});
