import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import en from '../../web/src/features/organization/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/organization/i18n/ja.json' with { type: 'json' };
import {
  exact,
  type Language,
  LANGUAGE_KEY,
  MOBILE,
  screenshot,
  signIn,
  signUpOrganization,
  TEXTS,
  UI_TIMEOUT,
  useApp,
  useBrowser,
  type Viewport,
} from '../helpers/browser.ts';

// The IP restriction screen in chromium against the real service. The browser connects from 127.0.0.1, which is
// the caller's address the server sees (no X-Forwarded-For from the page).

const FOREIGN = '203.0.113.0/24';
const OWN = '127.0.0.1/32';

const app = useApp();
const browser = useBrowser();

/** An organization's owner with the screen open, on the plan given. */
async function openScreen(options: { plan: 'free' | 'standard'; viewport?: Viewport; language?: Language }) {
  const org = await signUpOrganization(app);
  const pair = await signIn(app, org.loginId, org.password);
  if (options.plan === 'standard') {
    // The service operator's change (`keiyaku orgs set-plan`); the plan is read afresh on every request.
    await app.service.deps.knex('organizations').where({ id: org.organizationId }).update({ plan: 'standard' });
  }
  const page = await browser.openSignedIn({
    app,
    session: pair,
    viewport: options.viewport,
    language: options.language,
    path: '/organizations/settings/ip-restrictions',
    heading: (options.language === 'en' ? en : ja).ip.title,
  });
  return { org, pair, page };
}

async function savedCidrs(token: string): Promise<string[]> {
  const list = await app.api.call('listIpRestrictions', { token });
  return list.body.data.map((entry: { attributes: { cidr: string } }) => entry.attributes.cidr).sort();
}

const row = (page: Page, cidr: string) => page.getByRole('row').filter({ hasText: cidr });

describe('IP restriction screen', () => {
  it('adds the own IP and a foreign CIDR, saves, then refuses removing the own IP and keeps both', async () => {
    const { pair, page } = await openScreen({ plan: 'standard' });
    await page.getByText(ja.ip.callerIp.replace('{{ip}}', '127.0.0.1'), exact).waitFor();
    await page.getByText(ja.ip.empty, exact).waitFor();

    await page.getByRole('button', { name: ja.ip.addMine, exact: true }).click();
    await page.getByLabel(ja.ip.cidr, exact).fill(FOREIGN);
    await page.getByLabel(ja.ip.note, exact).fill('取引先');
    await page.getByRole('button', { name: ja.ip.add, exact: true }).click();
    await row(page, FOREIGN).waitFor();
    await row(page, OWN).getByText(ja.ip.ownIp, exact).waitFor();
    await page.getByRole('button', { name: ja.save, exact: true }).click();
    await page.getByRole('status').filter({ hasText: ja.saved }).waitFor();
    expect(await savedCidrs(pair.authorizationToken)).toEqual([OWN, FOREIGN].sort());

    await page.getByRole('button', { name: ja.ip.remove.replace('{{cidr}}', OWN), exact: true }).click();
    await expect.poll(() => row(page, OWN).count()).toBe(0);
    await page.getByRole('button', { name: ja.save, exact: true }).click();
    // The spec's rule: the own IP cannot be deleted; the refusal shows the catalogue message of its code.
    await page
      .getByRole('alert')
      .filter({ hasText: TEXTS.ja.errors.IP_RESTRICTION_EXCLUDES_OWN_IP })
      .waitFor({ timeout: UI_TIMEOUT });
    await screenshot(page, 'ip-restriction-own-ip-refused');
    expect(await savedCidrs(pair.authorizationToken)).toEqual([OWN, FOREIGN].sort());

    await page.reload();
    await row(page, OWN).waitFor({ timeout: UI_TIMEOUT });
    await row(page, FOREIGN).waitFor();
  });

  it('shows that the feature is not available on the free plan instead of an error page', async () => {
    const { page } = await openScreen({ plan: 'free' });
    await page.getByText(ja.ip.freePlan, exact).waitFor({ timeout: UI_TIMEOUT });
    expect(await page.getByRole('button', { name: ja.save, exact: true }).count()).toBe(0);
  });

  it('works at 360 px wide in English: every control is reachable and named', async () => {
    const { page } = await openScreen({ plan: 'standard', viewport: MOBILE, language: 'en' });
    await page.getByRole('button', { name: en.ip.addMine, exact: true }).click();
    await row(page, OWN).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await page.getByRole('button', { name: en.save, exact: true }).click();
    await page.getByRole('status').filter({ hasText: en.saved }).waitFor();
    await screenshot(page, 'ip-restriction-360');
    expect(await page.evaluate((key) => window.localStorage.getItem(key), LANGUAGE_KEY)).toBe('en');
  });

  it('shows the 403-IP page when a request is refused by IP', async () => {
    const { pair, page } = await openScreen({ plan: 'standard' });
    const saved = await app.api.call('replaceIpRestrictions', {
      token: pair.authorizationToken,
      headers: { 'x-forwarded-for': '203.0.113.9' },
      body: { data: [{ type: 'IpRestriction', attributes: { cidr: FOREIGN } }] },
    });
    expect(saved.status).toBe(200);
    await page.reload();
    await page
      .getByRole('heading', { name: TEXTS.ja.common.fallback.forbiddenIp.heading, exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
  });
});
