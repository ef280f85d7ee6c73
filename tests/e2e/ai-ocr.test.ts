import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { DATA_LIST_TEXTS } from '../../web/src/components/data-list-texts.ts';
import en from '../../web/src/features/ai-ocr/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/ai-ocr/i18n/ja.json' with { type: 'json' };
import flowsJa from '../../web/src/features/business-flows/i18n/ja.json' with { type: 'json' };
import documentsJa from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import templatesEn from '../../web/src/features/templates/i18n/en.json' with { type: 'json' };
import templatesJa from '../../web/src/features/templates/i18n/ja.json' with { type: 'json' };
import { signIn } from '../helpers/accounts.ts';
import { exact, heading, landedOn, TEXTS, toast, useApp, useBrowser } from '../helpers/browser.ts';
import { markScanned } from '../helpers/documents.ts';
import { CONTRACT_POSITIONS, contractPdf, type ContractValues } from '../helpers/ocr-documents.ts';
import { captureScreens } from '../helpers/screens.ts';
import { seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

// AI-OCR in chromium against the real service (poppler and Tesseract): an administrator of an organization with the
// aiOcr option draws the reading positions of a document template on its sample PDF with the mouse, uploads a
// contract made from the template, confirms the proposed values (one corrected) on the document screen, and finds
// the flow by those values in the business flow search (the 電子帳簿保存法 search: date, amount, counterparty).

vi.setConfig({ testTimeout: 240_000 });

const app = useApp(() => ({
  // The scan verdict is the test's (markScanned), and a clean verdict is what starts the reading.
  plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
}));
const browser = useBrowser();
const common = TEXTS.ja.common;

const TEMPLATE = '業務委託契約（AI-OCR）';
const VALUES: ContractValues = { date: '令和8年4月1日', amount: '¥1,234,000（税込）', party: '株式会社山田商事' };
const EDITED_PARTY = '株式会社山田商事 東京支店';
/** Names the test puts into the data (the seeded workspace, the template, the files). */
const ALLOW = ['Deals with B', TEMPLATE, 'sample.pdf', 'contract.pdf'];
/** A4 in points, as the contract helper draws it. */
const PAGE_WIDTH = 595.28;

const properties = {} as Record<keyof ContractValues, string>;
const NAMES: Record<keyof ContractValues, string> = { amount: '契約金額', date: '契約日', party: '取引先' };

async function createProperty(token: string, name: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('createProperty', {
    token,
    body: { data: { type: 'Property', attributes: { name, scope: 20, ...attributes } } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id as string;
}

/** Drags a box over the sample page from the rectangle's corner to the opposite one (points to screen pixels). */
async function drawBox(page: Page, rect: { x: number; y: number; width: number; height: number }) {
  // The page's top on screen: the mouse reaches only what the viewport shows.
  await page.getByTestId('reading-sheet').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  const sheet = await page.getByTestId('reading-sheet').boundingBox();
  if (!sheet) throw new Error('the sample page is not on screen');
  const scale = sheet.width / PAGE_WIDTH;
  const from = { x: sheet.x + rect.x * scale, y: sheet.y + rect.y * scale };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + (rect.width * scale) / 2, from.y + (rect.height * scale) / 2, { steps: 4 });
  await page.mouse.move(from.x + rect.width * scale, from.y + rect.height * scale, { steps: 4 });
  await page.mouse.up();
}

describe('AI-OCR', () => {
  let w: TaskWorld;
  let session: { authorizationToken: string; refreshToken: string };
  let templateId: string;
  /** The contract read in the first test; the English screens show it again. */
  let documentId = '';

  beforeAll(async () => {
    w = await seedTaskWorld(app, { plan: 'standard' });
    await app.service.deps
      .knex('organizations')
      .where({ id: w.ownerA.organizationId })
      .update({ options: ['aiOcr'] });
    session = await signIn(app, w.ownerA.loginId, w.ownerA.password);
    properties.amount = await createProperty(w.ownerA.token, NAMES.amount, {
      inputType: 10,
      numberUnit: 20,
      integerLength: 12,
    });
    properties.date = await createProperty(w.ownerA.token, NAMES.date, { inputType: 30 });
    properties.party = await createProperty(w.ownerA.token, NAMES.party, { inputType: 20 });
    const created = await app.api.call('createDocumentTemplate', {
      token: w.ownerA.token,
      body: { data: { type: 'DocumentTemplate', attributes: { name: TEMPLATE } } },
    });
    expect(created.status).toBe(201);
    templateId = created.body.data.id;
  });

  it('an administrator draws reading positions, confirms the proposals and finds the flow by the values read', async () => {
    // The template form: upload the sample, draw a box per property with the mouse, pick the properties, save.
    const page = await browser.openSignedIn({
      app,
      session,
      path: '/organizations/templates',
      heading: templatesJa.title,
    });
    await page
      .getByRole('button', { name: templatesJa.list.editLabel.replace('{{name}}', TEMPLATE), exact: true })
      .click();
    const section = page.getByTestId('reading-positions');
    await section.getByRole('heading', { name: ja.editor.title, exact: true }).waitFor();
    await section.getByText(ja.editor.empty, exact).waitFor();
    await section.getByLabel(ja.editor.uploadSample, exact).setInputFiles({
      name: 'sample.pdf',
      mimeType: 'application/pdf',
      buffer: await contractPdf(VALUES),
    });
    await section.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });
    await section.getByLabel(ja.editor.replaceSample, exact).waitFor();

    const order: (keyof ContractValues)[] = ['date', 'amount', 'party'];
    for (const [row, key] of order.entries()) {
      await drawBox(page, CONTRACT_POSITIONS[key]);
      await section.locator('.reading-row').nth(row).waitFor();
      await section.getByLabel(ja.editor.property, exact).nth(row).selectOption({ label: NAMES[key] });
    }
    await section.getByLabel(ja.editor.hint, exact).nth(0).fill('令和8年4月1日');
    await section.getByRole('group', { name: NAMES.amount, exact: true }).waitFor();
    await captureScreens(page, 'ai-ocr-reading-positions', { allow: ALLOW });

    await page.getByRole('button', { name: templatesJa.form.save, exact: true }).click();
    await toast(page, templatesJa.form.saved).waitFor();
    const stored = await app.api.call('getDocumentTemplate', {
      token: w.ownerA.token,
      params: { documentTemplateId: templateId },
    });
    expect(stored.status).toBe(200);
    const positions = stored.body.data.attributes.readingPositions as {
      propertyId: string;
      page: number;
      x: number;
      y: number;
      width: number;
      height: number;
      hint: string | null;
    }[];
    expect(positions.map((p) => p.propertyId)).toEqual(order.map((key) => properties[key]));
    for (const [index, key] of order.entries()) {
      const drawn = positions[index]!;
      const wanted = CONTRACT_POSITIONS[key];
      // The mouse lands on whole pixels: within a point and a half of the rectangle asked for.
      for (const side of ['x', 'y', 'width', 'height'] as const) {
        expect(Math.abs(drawn[side] - wanted[side]), `${key}.${side}`).toBeLessThan(1.5);
      }
      expect(drawn.page).toBe(1);
    }
    expect(positions[0]!.hint).toBe('令和8年4月1日');
    expect(stored.body.data.attributes.sample).toMatchObject({ fileName: 'sample.pdf', pageCount: 1 });

    // A contract made from the template goes into the flow; the clean scan starts the reading.
    await page.goto(`/organizations/business-flows/${w.flowId}/documents/new`);
    await heading(page, documentsJa.upload.title);
    await page.getByLabel(documentsJa.upload.fileLabel, exact).setInputFiles({
      name: 'contract.pdf',
      mimeType: 'application/pdf',
      buffer: await contractPdf(VALUES),
    });
    await page.getByLabel(documentsJa.upload.name, exact).fill('業務委託契約書');
    await page.getByLabel(documentsJa.upload.template, exact).selectOption({ label: TEMPLATE });
    await page.getByRole('button', { name: documentsJa.upload.submit, exact: true }).click();
    const url = await landedOn(page, /^\/organizations\/documents\/[0-9a-f-]{36}$/);
    documentId = url.pathname.split('/').pop()!;
    await markScanned(app, documentId, 'clean');

    const panel = page.getByTestId('document-ocr');
    await panel.getByRole('heading', { name: ja.panel.title, exact: true }).waitFor();
    const proposals = panel.getByTestId('ocr-proposal');
    await expect.poll(() => proposals.count(), { timeout: 90_000, interval: 1000 }).toBe(3);
    const proposal = (name: string) => proposals.filter({ has: page.getByRole('heading', { name, exact: true }) });
    await proposal(NAMES.date).getByText('2026年4月1日', exact).waitFor();
    await proposal(NAMES.amount).getByText('1,234,000円', exact).waitFor();
    await proposal(NAMES.amount).getByText(ja.notes.taxIncluded, exact).waitFor();
    await proposal(NAMES.party).getByText(VALUES.party, exact).first().waitFor();
    await proposal(NAMES.amount).getByText(ja.sources.text, exact).waitFor();

    // Pointing at a proposal highlights where it was read on the page.
    await panel.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });
    await proposal(NAMES.party).hover();
    const highlighted = panel.locator('.reading-box.highlighted');
    await highlighted.filter({ hasText: NAMES.party }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await captureScreens(page, 'ai-ocr-document-proposals', { allow: ALLOW });

    // The counterparty is corrected, the rest accepted at once.
    await proposal(NAMES.party).getByRole('button', { name: ja.panel.edit, exact: true }).click();
    await proposal(NAMES.party)
      .getByRole('textbox', { name: ja.panel.editLabel.replace('{{name}}', NAMES.party), exact: true })
      .fill(EDITED_PARTY);
    await proposal(NAMES.party).getByRole('button', { name: ja.panel.accept, exact: true }).click();
    await proposal(NAMES.party).getByText(ja.decisions.edited, exact).waitFor();
    await panel.getByRole('button', { name: ja.panel.acceptAll.replace('{{count}}', '2'), exact: true }).click();
    await proposal(NAMES.amount).getByText(ja.decisions.accepted, exact).waitFor();
    await proposal(NAMES.date).getByText(ja.decisions.accepted, exact).waitFor();
    await expect.poll(() => panel.getByRole('button', { name: ja.panel.accept, exact: true }).count()).toBe(0);
    await captureScreens(page, 'ai-ocr-document-decided', { allow: [...ALLOW, EDITED_PARTY] });

    // The document's properties show the values (the document was fetched again).
    const party = page.getByLabel(NAMES.party, exact);
    await expect.poll(() => party.inputValue()).toBe(EDITED_PARTY);
    const detail = await app.api.call('getDocument', { token: w.ownerA.token, params: { documentId } });
    const values = Object.fromEntries(
      (detail.body.data.attributes.properties as { propertyId: string; value: string }[]).map((p) => [
        p.propertyId,
        p.value,
      ]),
    );
    expect(values).toMatchObject({
      [properties.date]: '2026-04-01',
      [properties.amount]: '1234000',
      [properties.party]: EDITED_PARTY,
    });

    // The business flow search (電子帳簿保存法: date, amount, counterparty) by the document values finds the flow.
    await page.goto('/organizations/business-flows');
    await heading(page, flowsJa.title);
    const documentProperty = (key: keyof ContractValues) =>
      flowsJa.search.documentProperty.replace('{{name}}', NAMES[key]);
    for (const key of ['date', 'amount', 'party'] as const) {
      await page.getByLabel(flowsJa.search.addProperty, exact).selectOption({ label: documentProperty(key) });
      await page.getByRole('button', { name: flowsJa.search.add, exact: true }).click();
    }
    const range = (key: keyof ContractValues, side: 'rangeFrom' | 'rangeTo') =>
      page.getByLabel(flowsJa.search[side].replace('{{name}}', documentProperty(key)), exact);
    await range('date', 'rangeFrom').fill('2026-04-01');
    await range('date', 'rangeTo').fill('2026-04-01');
    await range('amount', 'rangeFrom').fill('1234000');
    await range('amount', 'rangeTo').fill('1234000');
    await page
      .getByLabel(flowsJa.search.contains.replace('{{name}}', documentProperty('party')), exact)
      .fill('山田商事');
    await page.getByRole('button', { name: flowsJa.search.submit, exact: true }).click();
    await page.getByRole('cell', { name: '売買契約 2026' }).first().waitFor();
    await captureScreens(page, 'ai-ocr-flow-search', { allow: [...ALLOW, '売買契約 2026'] });
    // One yen more matches nothing.
    await range('amount', 'rangeTo').fill('1234001');
    await range('amount', 'rangeFrom').fill('1234001');
    await page.getByRole('button', { name: flowsJa.search.submit, exact: true }).click();
    await page.getByText(DATA_LIST_TEXTS.ja.emptySearch, exact).waitFor();
  });

  it('shows the settings section: pages used this month and the automatic confirmation, changed by administrators', async () => {
    const page = await browser.openSignedIn({
      app,
      session,
      path: '/organizations/settings/ai-ocr',
      heading: ja.settings.title,
    });
    await page.getByRole('link', { name: common.settings.sections.aiOcr, exact: true }).waitFor();
    await page.getByTestId('ocr-pages-used').waitFor();
    const enable = page.getByLabel(ja.settings.autoEnable, exact);
    expect(await enable.isChecked()).toBe(false);
    await enable.check();
    await page.getByLabel(ja.settings.threshold, exact).fill('95');
    await page.getByRole('button', { name: ja.settings.save, exact: true }).click();
    await toast(page, ja.settings.saved).waitFor();
    const settings = await app.api.call('getOcrSettings', { token: w.ownerA.token });
    expect(settings.body.data.attributes.autoAcceptConfidence).toBe(0.95);
    await captureScreens(page, 'ai-ocr-settings', { allow: ALLOW });
  });

  it('has the same screens in English', async () => {
    const page = await browser.openSignedIn({
      app,
      session,
      language: 'en',
      path: '/organizations/settings/ai-ocr',
      heading: en.settings.title,
    });
    await page.getByTestId('ocr-pages-used').waitFor();
    await captureScreens(page, 'ai-ocr-settings');

    await page.goto('/organizations/templates');
    await page
      .getByRole('button', { name: templatesEn.list.editLabel.replace('{{name}}', TEMPLATE), exact: true })
      .click();
    const section = page.getByTestId('reading-positions');
    await section.getByRole('heading', { name: en.editor.title, exact: true }).waitFor();
    await section.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });
    await section.getByRole('group', { name: NAMES.amount, exact: true }).waitFor();
    await captureScreens(page, 'ai-ocr-reading-positions', { allow: ALLOW });

    expect(documentId).not.toBe('');
    await page.goto(`/organizations/documents/${documentId}`);
    const panel = page.getByTestId('document-ocr');
    await panel.getByRole('heading', { name: en.panel.title, exact: true }).waitFor();
    await panel.getByText('April 1, 2026', exact).waitFor();
    await panel.getByText('¥1,234,000', exact).waitFor();
    await panel.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });
    await panel.scrollIntoViewIfNeeded();
    await captureScreens(page, 'ai-ocr-document-decided', { allow: [...ALLOW, EDITED_PARTY, ...Object.values(NAMES)] });
  });
});
