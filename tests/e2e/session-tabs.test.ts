// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../../core/auth/routes.ts';
import {
  field,
  heading,
  landedOn,
  PASSWORD,
  signUpOrganization,
  storedTokens,
  TEXTS,
  TOKENS_KEY,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';

// Two tabs of one browser whose access tokens expire together both refresh: before the grace window and the
// cross-tab lock, one refresh won and the other was taken for token reuse, which signed the user out (5 of 5 runs).

const ROUNDS = 5;

const app = useApp();
const browser = useBrowser();

interface Stored {
  accessToken: { accessToken: string; claims: { exp: number; sid: string } };
  refreshToken?: unknown;
}

/** Signs in through the sign-in screen, so the workbench's own request (cookie delivery) is what is tested. */
async function signInThroughForm(page: Page, loginId: string) {
  const { auth } = TEXTS.ja;
  await page.goto('/login');
  await heading(page, auth.login.title);
  await field(page, auth.fields.loginId).fill(loginId);
  await field(page, auth.fields.password).fill(PASSWORD);
  await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
  await landedOn(page, '/');
  await heading(page, auth.home.title);
}

/** Marks the shared stored access token as expired, as it is once its `exp` has passed in every tab at once. */
async function expireStoredAccessToken(page: Page) {
  await page.evaluate((key) => {
    const tokens = JSON.parse(window.localStorage.getItem(key)!);
    tokens.accessToken.claims.exp = Math.floor(Date.now() / 1000) - 1;
    window.localStorage.setItem(key, JSON.stringify(tokens));
  }, TOKENS_KEY);
}

/** Records every refreshAuth answer the pages receive: status and whether the body held a refresh token. */
function recordRefreshes(pages: Page[]) {
  const answers: { status: number; bodyHadRefreshToken: boolean }[] = [];
  for (const page of pages) {
    page.on('response', async (response) => {
      const request = response.request();
      if (request.method() !== 'PATCH' || new URL(response.url()).pathname !== '/core/v1/auth') return;
      const body = (await response.json().catch(() => null)) as { data?: { attributes?: object } } | null;
      answers.push({
        status: response.status(),
        bodyHadRefreshToken: Boolean(body?.data?.attributes && 'refreshToken' in body.data.attributes),
      });
    });
  }
  return answers;
}

async function refreshCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === REFRESH_COOKIE);
}

/** Opens a second tab of the same browser (shared localStorage and cookies) on the dashboard. */
async function secondTab(first: Page) {
  const second = await first.context().newPage();
  await second.goto('/');
  await heading(second, TEXTS.ja.auth.home.title);
  return second;
}

/** Expires the tokens and reloads both tabs at once, ROUNDS times; each time both must stay on the dashboard. */
async function refreshTogether(tabs: Page[]) {
  const answers = recordRefreshes(tabs);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const before = answers.length;
    await expireStoredAccessToken(tabs[0]!);
    await Promise.all(tabs.map((tab) => tab.reload()));
    for (const tab of tabs) {
      await heading(tab, TEXTS.ja.auth.home.title);
      expect(new URL(tab.url()).pathname, `round ${round}`).toBe('/');
    }
    // The heading shows before the refresh settles (the screen does not wait for it): poll for the stored token.
    await expect
      .poll(async () => ((await storedTokens(tabs[0]!)) as Stored).accessToken.claims.exp, {
        message: `round ${round}`,
      })
      .toBeGreaterThan(Date.now() / 1000);
    await expect.poll(() => answers.length, { message: `round ${round}: a refresh happened` }).toBeGreaterThan(before);
  }
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  expect(answers.some((answer) => answer.bodyHadRefreshToken)).toBe(false);
  return answers;
}

async function expectSessionLive(page: Page) {
  const stored = (await storedTokens(page)) as Stored;
  const session = await app.service.deps.knex('auth_sessions').where({ id: stored.accessToken.claims.sid }).first();
  expect(session.revoked_at).toBeNull();
}

describe('two tabs refreshing at once', () => {
  it(`both stay signed in when their access tokens expire together (${ROUNDS} of ${ROUNDS})`, async () => {
    const org = await signUpOrganization(app);
    const first = await browser.open({ app });
    await signInThroughForm(first, org.loginId);
    const second = await secondTab(first);

    await refreshTogether([first, second]);
    await expectSessionLive(first);
  });

  it(`both stay signed in without Web Locks too, through the server's grace window (${ROUNDS} of ${ROUNDS})`, async () => {
    const org = await signUpOrganization(app);
    const first = await browser.open({ app });
    // A browser without Web Locks: nothing keeps the two tabs from sending the same refresh token at once.
    await first.context().addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true });
    });
    await signInThroughForm(first, org.loginId);
    expect(await first.evaluate(() => 'locks' in navigator && navigator.locks !== undefined)).toBe(false);
    const second = await secondTab(first);

    await refreshTogether([first, second]);
    await expectSessionLive(first);
  });
});

describe('where the refresh token lives', () => {
  it('keeps the refresh token out of localStorage and of page scripts: an HttpOnly, SameSite=Strict cookie for /core/v1/auth', async () => {
    const org = await signUpOrganization(app);
    const page = await browser.open({ app });
    const signInAnswer = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/core/v1/auth',
    );
    await signInThroughForm(page, org.loginId);
    expect((await (await signInAnswer).json()).data.attributes).not.toHaveProperty('refreshToken');

    const stored = (await storedTokens(page)) as Stored;
    expect(stored.accessToken.accessToken).toMatch(/^ey/);
    expect(stored).not.toHaveProperty('refreshToken');
    const cookie = (await refreshCookie(page.context()))!;
    expect(cookie).toBeDefined();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/core/v1/auth', secure: false });
    const storage = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
    expect(storage).not.toContain(cookie.value);
    expect(await page.evaluate(() => document.cookie)).not.toContain(cookie.value);
    // Even a document under the cookie's own path cannot read it.
    await page.goto('/core/v1/auth/password');
    expect(await page.evaluate(() => document.cookie)).not.toContain(REFRESH_COOKIE);

    // A refresh rotates the cookie and still puts no refresh token where scripts can read it.
    await page.goto('/');
    await heading(page, TEXTS.ja.auth.home.title);
    await expireStoredAccessToken(page);
    const refreshed = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && new URL(response.url()).pathname === '/core/v1/auth',
    );
    await page.reload();
    await heading(page, TEXTS.ja.auth.home.title);
    expect((await refreshed).status()).toBe(200);
    const rotated = (await refreshCookie(page.context()))!;
    expect(rotated.value).not.toBe(cookie.value);
    expect(rotated.httpOnly).toBe(true);
    expect(await storedTokens(page)).not.toHaveProperty('refreshToken');

    // Signing out clears the cookie.
    await page.getByRole('button', { name: TEXTS.ja.common.nav.signOut, exact: true }).click();
    await landedOn(page, '/login');
    expect(await refreshCookie(page.context())).toBeUndefined();
  });
});
