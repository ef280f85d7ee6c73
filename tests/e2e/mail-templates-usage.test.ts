import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { recordUsage } from '../../core/modules/usage/counters.ts';
import mailEn from '../../web/src/features/mail-templates/i18n/en.json' with { type: 'json' };
import usageEn from '../../web/src/features/usage/i18n/en.json' with { type: 'json' };
import { LANGUAGE_KEY, MOBILE, screenshot, UI_TIMEOUT, useApp, useBrowser, type Viewport } from '../helpers/browser.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';

// The mail templates and usage screens in chromium (English UI), against the real service.

const app = useApp();
const browser = useBrowser();

async function signedInAdmin(viewport?: Viewport) {
  const { org, page } = await browser.openAsOwner({ app, language: 'en', viewport, overrides: { locale: 'en' } });
  await page.evaluate((key) => window.localStorage.setItem(key, 'en'), LANGUAGE_KEY);
  return { org, page };
}

async function openTemplate(page: Page, name: string) {
  await page.goto('/organizations/settings/mail-templates');
  await page.getByRole('heading', { level: 1, name: mailEn.title }).waitFor({ timeout: UI_TIMEOUT });
  await page.getByLabel(mailEn.list.locale, { exact: true }).selectOption('en');
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: `${name} (English)` }).waitFor({ timeout: UI_TIMEOUT });
}

describe('mail templates screen', () => {
  it('names a missing required placeholder, previews, saves a template the next mail uses, and resets it', async () => {
    const { org, page } = await signedInAdmin();
    await openTemplate(page, 'Password reset');
    const body = page.getByLabel(mailEn.edit.fields.body, { exact: true });
    await body.fill('Hello {{userName}}, no link here.');
    await page.getByRole('button', { name: mailEn.edit.save, exact: true }).click();
    await page
      .getByText('The body must contain these required placeholders: {{link}}')
      .waitFor({ timeout: UI_TIMEOUT });

    await body.fill('Hello {{userName}} of {{organizationName}}, reset here: ');
    await page.getByRole('button', { name: 'Insert {{link}} into the body' }).click();
    await expect.poll(() => body.inputValue()).toBe('Hello {{userName}} of {{organizationName}}, reset here: {{link}}');
    await page.getByLabel(mailEn.edit.fields.subject, { exact: true }).fill('Reset for {{userName}}');
    await page.getByRole('button', { name: mailEn.edit.preview, exact: true }).click();
    const preview = page.getByRole('region', { name: mailEn.edit.previewTitle });
    await preview.getByText('Reset for Taro Yamada').waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('button', { name: mailEn.edit.save, exact: true }).click();
    await page.getByText(mailEn.edit.saved).waitFor({ timeout: UI_TIMEOUT });
    await page.getByText(mailEn.edit.customised).waitFor();
    await screenshot(page, 'mail-template-saved');

    const requested = await app.api.call('requestPasswordReset', {
      body: { data: { type: 'PasswordResetRequest', attributes: { loginId: org.loginId, email: org.email } } },
    });
    expect(requested.status).toBe(202);
    const mail = await waitForMail(
      app,
      (m) => recipientOf(m).includes(org.email) && m.subject === 'Reset for 山田 太郎',
    );
    expect(mail.text).toMatch(/^Hello 山田 太郎 of 株式会社テスト, reset here: http/);

    await page.getByRole('button', { name: mailEn.edit.reset, exact: true }).click();
    await page
      .getByRole('dialog', { name: mailEn.edit.resetTitle })
      .getByRole('button', { name: mailEn.edit.reset })
      .click();
    await page.getByText(mailEn.edit.resetDone).waitFor({ timeout: UI_TIMEOUT });
    await expect
      .poll(() => page.getByLabel(mailEn.edit.fields.subject, { exact: true }).inputValue())
      .toBe('[Keiyaku] Reset your password');
  });
});

describe('usage screen', () => {
  it('shows months × metrics with zeros and totals at 360 px, and a chosen range', async () => {
    const { org, page } = await signedInAdmin(MOBILE);
    await app.service.deps.knex.transaction((trx) =>
      recordUsage(trx, org.organizationId, 'documents', 3, new Date('2026-02-10T00:00:00Z')),
    );
    await page.goto('/organizations/settings/usage');
    await page.getByRole('heading', { level: 1, name: usageEn.title }).waitFor({ timeout: UI_TIMEOUT });
    // The usage table (the invoices section below it has tables of its own: tests/e2e/billing.test.ts).
    const table = page.getByRole('table', { name: /^Usage from/ });
    await table.waitFor({ timeout: UI_TIMEOUT });
    // 12 months, the header row and the totals row.
    expect(await table.getByRole('row').count()).toBe(14);

    await page.getByLabel(usageEn.range.from).fill('2026-01');
    await page.getByLabel(usageEn.range.to).fill('2026-03');
    await page.getByRole('button', { name: usageEn.range.apply }).click();
    await expect.poll(() => table.getByRole('row').count(), { timeout: UI_TIMEOUT }).toBe(5);
    const february = table.getByRole('row', { name: /February 2026/ });
    await expect.poll(() => february.getByRole('cell').first().textContent()).toBe('3');
    const total = table.getByRole('row', { name: new RegExp(usageEn.table.total) });
    await expect.poll(() => total.getByRole('cell').first().textContent()).toBe('3');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await screenshot(page, 'usage-mobile');
  });
});
