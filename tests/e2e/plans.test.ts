import { describe, expect, it, vi } from 'vitest';
import en from '../../web/src/features/organization/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/organization/i18n/ja.json' with { type: 'json' };
import { exact, LANGUAGE_KEY, UI_TIMEOUT, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';

// The owner's plan screen in chromium: the plan, its limits and this month's usage against them, every plan's
// prices side by side, and a change requested from the operator (who applies it over the operator API).

vi.setConfig({ testTimeout: 120_000 });

const OPERATOR_TOKEN = 'operator-token-for-the-browser-test-01';
const app = useApp({ env: { KEIYAKU_OPERATOR_TOKEN: OPERATOR_TOKEN } });
const browser = useBrowser();

describe('plan screen', () => {
  it('shows plan, limits and usage, requests a change, and shows the plan the operator applied', async () => {
    const { org, token, page } = await browser.openAsOwner({
      app,
      path: '/organizations/settings/organization',
      heading: ja.info.title,
    });
    const section = page.getByRole('region', { name: ja.plan.title });
    await section.getByText(ja.plan.metrics.documents, exact).waitFor({ timeout: UI_TIMEOUT });
    await section
      .getByRole('cell', { name: /10,000/ })
      .first()
      .waitFor();
    await captureScreens(page, 'plan-free');

    await section.getByLabel(/スタンダード/).check();
    await section.getByLabel(ja.plan.comment).fill('来月から利用します');
    await section.getByRole('button', { name: ja.plan.request, exact: true }).click();
    await section.getByText(ja.plan.requested, exact).waitFor({ timeout: UI_TIMEOUT });
    await section.getByRole('button', { name: ja.plan.withdraw, exact: true }).waitFor();
    const list = await app.api.call('listPlanChangeRequests', { token });
    expect(list.body.data[0].attributes).toMatchObject({
      plan: 'standard',
      status: 'pending',
      comment: '来月から利用します',
    });
    await captureScreens(page, 'plan-requested');

    const applied = await app.api.call('setOrganizationPlan', {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      params: { organization: org.organizationId },
      body: { data: { type: 'OrganizationPlan', attributes: { plan: 'standard' } } },
    });
    expect(applied.status).toBe(200);
    await page.reload();
    await section
      .getByText(/月額 .10,000/)
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
    await expect.poll(() => section.getByRole('button', { name: ja.plan.withdraw, exact: true }).count()).toBe(0);

    await page.evaluate((key) => localStorage.setItem(key, 'en'), LANGUAGE_KEY);
    await page.reload();
    await page.getByRole('region', { name: en.plan.title }).getByText(en.plan.metrics.documents, exact).waitFor({
      timeout: UI_TIMEOUT,
    });
    await captureScreens(page, 'plan-standard');
  });
});
