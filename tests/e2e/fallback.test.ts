// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import oneTimeJa from '../../web/src/features/one-time/i18n/ja.json' with { type: 'json' };
import {
  landedOn,
  LANGUAGE_KEY,
  MOBILE,
  screenshot,
  storedTokens,
  switchLanguage,
  TEXTS,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';

// The workbench served by the real service: fallback pages, the login guard's redirects and the one-time group.

const app = useApp();
const browser = useBrowser();

/** The logo image is on the page and actually loaded (not a broken image). */
async function expectLogo(page: Page) {
  const logo = page.locator('main img[src="/favicon.svg"]').first();
  await logo.waitFor();
  // Attached is not loaded: on a busy machine the image may still be decoding when the element appears.
  await expect
    .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
    .toBe(true);
  await page.locator('main').getByText(TEXTS.ja.common.appName, { exact: true }).first().waitFor();
}

describe('not-found page', () => {
  it('shows the logo, the 404 status and the Japanese heading for an unknown path, English after a switch', async () => {
    const page = await browser.open({ app });
    const response = await page.goto('/no-such-page/anywhere');
    // The service answers every page route with the workbench; the workbench decides it is not found.
    expect(response?.status()).toBe(200);
    const ja = TEXTS.ja.common.fallback.notFound;
    await page.getByRole('heading', { level: 1, name: ja.heading }).waitFor();
    expect(ja.heading).toBe('お探しのページは見つかりませんでした。');
    await page.getByText(ja.title, { exact: true }).waitFor();
    await expectLogo(page);
    expect(new URL(page.url()).pathname).toBe('/no-such-page/anywhere'); // no redirect to sign-in
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await screenshot(page, 'fallback-404-ja');

    // The switch lives on the signed-out screens; the choice is kept for every page after it.
    await page.goto('/login');
    await switchLanguage(page, 'ja', 'en');
    expect(await page.evaluate((key) => window.localStorage.getItem(key), LANGUAGE_KEY)).toBe('en');
    await page.goto('/no-such-page/anywhere');
    const en = TEXTS.en.common.fallback.notFound;
    expect(en.heading).toBe('The page you were looking for was not found.');
    await page.getByRole('heading', { level: 1, name: en.heading }).waitFor();
    await expectLogo(page);
    await page.getByRole('link', { name: TEXTS.en.common.fallback.backHome }).waitFor();
    await screenshot(page, 'fallback-404-en');
  });

  it('is usable at 360 px wide: nothing overflows horizontally', async () => {
    const page = await browser.open({ app, viewport: MOBILE });
    await page.goto('/nothing-here');
    await page.getByRole('heading', { level: 1, name: TEXTS.ja.common.fallback.notFound.heading }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'fallback-404-ja-360');
  });
});

describe('the login guard without a session', () => {
  it('sends /error-403 to /login with the original path as redirect (no timeout flag)', async () => {
    const page = await browser.open({ app });
    await page.goto('/error-403');
    const query = (await landedOn(page, '/login')).searchParams;
    expect(query.get('redirect')).toBe('/error-403');
    expect(query.has('timeout')).toBe(false);
    // The forbidden page itself never rendered for a signed-out visitor.
    expect(await page.getByText(TEXTS.ja.common.fallback.forbidden.heading).count()).toBe(0);
    await screenshot(page, 'guard-error-403-to-login');
  });

  it('sends / to /login?redirect=/ and keeps path and query of a deeper protected page', async () => {
    const page = await browser.open({ app });
    await page.goto('/');
    expect((await landedOn(page, '/login')).searchParams.get('redirect')).toBe('/');
    expect(await storedTokens(page)).toBeNull();

    await page.goto('/business-flows/abc?tab=docs');
    const query = (await landedOn(page, '/login')).searchParams;
    expect(query.get('redirect')).toBe('/business-flows/abc?tab=docs');
    expect(query.has('timeout')).toBe(false);
    await screenshot(page, 'guard-protected-to-login');
  });

  it('shows the forbidden page with the logo at /error-403 once signed in, in one main landmark', async () => {
    const { page } = await browser.openAsOwner({ app, path: '/error-403' });
    const forbidden = TEXTS.ja.common.fallback.forbidden;
    await page.getByRole('heading', { level: 1, name: forbidden.heading }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/error-403');
    await expectLogo(page);
    // Inside the signed-in layout the page is a section of the one main landmark the skip link targets.
    expect(await page.getByRole('main').count()).toBe(1);
    await screenshot(page, 'fallback-403-ja');
  });
});

describe('the one-time group', () => {
  it('renders /onetime/terms without a session and without a redirect, also after the window regains focus', async () => {
    const page = await browser.open({ app });
    await page.goto('/onetime/terms');
    // Without a guest session the page says how to get one (the mail link or the access code).
    const title = oneTimeJa.link.session.heading;
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('link', { name: oneTimeJa.link.session.action }).waitFor();
    expect(await storedTokens(page)).toBeNull();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    // Give the router a turn to act on the focus before checking that it did not.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    expect(new URL(page.url()).pathname).toBe('/onetime/terms');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await screenshot(page, 'onetime-terms');
  });

  it('has its own error page for an unknown one-time path, without a way back to the signed-in home', async () => {
    const page = await browser.open({ app });
    await page.goto('/onetime/no-such-step');
    const oneTime = TEXTS.ja.common.fallback.oneTime;
    await page.getByRole('heading', { level: 1, name: oneTime.heading }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/onetime/no-such-step');
    expect(await page.getByRole('link', { name: TEXTS.ja.common.fallback.backHome }).count()).toBe(0);
    await screenshot(page, 'onetime-error');
  });
});
