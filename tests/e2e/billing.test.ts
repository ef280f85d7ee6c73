/*
 * The invoices on the usage screen in chromium, against the real service: the current month's preview and a closed
 * month's invoice with its PDF and CSV buttons, captured in ja and en at 1280 and 360 px (no English on the ja
 * screen, no untranslated key), and the PDF downloaded through the button.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { addMonths, tokyoMonth } from '../../core/modules/usage/counters.ts';
import { CLOSE_MONTH_JOB } from '../../plugins/billing/index.ts';
import usageEn from '../../web/src/features/usage/i18n/en.json' with { type: 'json' };
import usageJa from '../../web/src/features/usage/i18n/ja.json' with { type: 'json' };
import { switchLanguage, UI_TIMEOUT, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';

vi.setConfig({ testTimeout: 180_000 });

// Months are closed only with an issuer set explicitly (never the embedded example).
const app = useApp({
  env: {
    KEIYAKU_PLUGIN_BILLING_ISSUER_NAME: '契約運営テスト株式会社',
    KEIYAKU_PLUGIN_BILLING_REGISTRATION_NUMBER: 'T7000012050002',
    KEIYAKU_PLUGIN_BILLING_ISSUER_ADDRESS: '東京都千代田区霞が関3-1-1',
  },
});
const browser = useBrowser();

describe('invoices on the usage screen', () => {
  it('shows the preview and the closed invoices in ja and en, and downloads the invoice PDF', async () => {
    const { org, page } = await browser.openAsOwner({ app, language: 'ja', plan: 'standard' });
    const knex = app.service.deps.knex;
    const month = tokyoMonth(app.clock.now());
    const last = addMonths(month, -1);
    // The organization existed through last month, which used 12 documents; this month has 3 so far.
    await knex('organizations')
      .where({ id: org.organizationId })
      .update({ created_at: new Date(`${last}-01T00:00:00Z`) });
    await knex('usage_counters').insert([
      { organization_id: org.organizationId, month: last, metric: 'documents', count: 12, updated_at: new Date() },
      { organization_id: org.organizationId, month, metric: 'documents', count: 3, updated_at: new Date() },
    ]);
    // Billing started before last month (the start month itself is never closed).
    await knex('billing_start')
      .where({ id: 'start' })
      .update({ month: addMonths(month, -2) });
    await app.service.deps.jobs.send(CLOSE_MONTH_JOB, { month: last });
    const invoice = await vi.waitFor(
      async () => {
        const row = await knex('billing_statements')
          .where({ organization_id: org.organizationId, month: last })
          .whereNotNull('pdf_sha256')
          .first();
        if (!row) throw new Error('not closed yet');
        return row;
      },
      { timeout: 90_000, interval: 500 },
    );

    await page.goto('/organizations/settings/usage');
    await page.getByRole('heading', { level: 2, name: usageJa.billing.title }).waitFor({ timeout: UI_TIMEOUT });
    const statements = page.getByRole('table', { name: usageJa.billing.list.caption });
    await statements.getByRole('row', { name: new RegExp(invoice.number) }).waitFor({ timeout: UI_TIMEOUT });
    // 10,000 base fee + 12 × 200 = 12,400; tax 1,240: 13,640 in all.
    await statements.getByText(/13,640/).waitFor();
    const preview = page.getByRole('table', { name: /見込み明細/ });
    await preview.getByRole('row', { name: new RegExp(usageJa.billing.items.documents) }).waitFor();
    await captureScreens(page, 'usage-billing');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `${invoice.number}のPDFをダウンロード` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${invoice.number}.pdf`);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.equals(invoice.pdf)).toBe(true);

    await switchLanguage(page, 'ja', 'en');
    await page.getByRole('heading', { level: 2, name: usageEn.billing.title }).waitFor({ timeout: UI_TIMEOUT });
    await page
      .getByRole('table', { name: usageEn.billing.list.caption })
      .getByRole('button', { name: `Download the CSV of ${invoice.number}` })
      .waitFor();
    await captureScreens(page, 'usage-billing');
  });
});
