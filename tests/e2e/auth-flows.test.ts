// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  exact,
  field,
  heading,
  landedOn,
  LANGUAGE_KEY,
  type Language,
  mailedLink,
  MOBILE,
  PASSWORD,
  screenshot,
  SESSION_TIMESTAMP_KEY,
  signIn,
  signUpOrganization,
  storedTokens,
  switchLanguage,
  TEXTS,
  toast,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';

// The sign-in screens of the workbench in chromium against the real service: every flow through the UI, the API
// only to prepare accounts and to check what the server ended up with.

const MINUTE = 60_000;
/** The spec's 5 s auto-close plus react-toastify's exit animation, with room for a slow two-core machine. */
const TOAST_GONE_WITHIN = 10_000;

const app = useApp();
const browser = useBrowser();

/** Fills the sign-in form and submits it (the page must show /login). */
async function submitSignIn(page: Page, loginId: string, password: string, language: Language = 'ja') {
  const auth = TEXTS[language].auth;
  await heading(page, auth.login.title);
  await field(page, auth.fields.loginId).fill(loginId);
  await field(page, auth.fields.password).fill(password);
  await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
}

/** Signs in through the UI from /login and waits for the dashboard. */
async function signInToDashboard(page: Page, loginId: string, password = PASSWORD, language: Language = 'ja') {
  await page.goto('/login');
  await submitSignIn(page, loginId, password, language);
  await landedOn(page, '/');
  await heading(page, TEXTS[language].auth.home.title);
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('sign-up → sign-in → dashboard → sign-out', () => {
  it('registers an organization through the form, signs its owner in, shows them on the dashboard and signs out', async () => {
    const { auth, common } = TEXTS.ja;
    const page = await browser.open({ app });
    const loginId = `ui-owner-${process.pid}`;
    const email = `${loginId}@example.com`;
    const password = 'browser-flow9';

    await page.goto('/login');
    await heading(page, auth.login.title);
    await screenshot(page, 'login-ja-1280');
    await page.getByRole('link', { name: auth.login.signUp, exact: true }).click();
    await landedOn(page, '/signup');
    await heading(page, auth.signup.title);

    await field(page, auth.fields.organizationName).fill('株式会社ブラウザ試験');
    await page.getByLabel(auth.fields.noCorporateNumber, exact).check();
    expect(await field(page, auth.fields.corporateNumber).isDisabled()).toBe(true);
    await field(page, auth.fields.loginId).fill(loginId);
    await field(page, auth.fields.userName).fill('佐藤 花子');
    await field(page, auth.fields.email).fill(email);
    await field(page, auth.fields.password).fill(password);
    await field(page, auth.fields.passwordConfirmation).fill(password);
    // The consent checkbox becomes usable once the terms in force are loaded and shown.
    const consent = page.getByLabel(auth.terms.agree, exact);
    await page.locator(`[id="${await consent.getAttribute('id')}"]:enabled`).waitFor();
    await consent.check();
    await screenshot(page, 'signup-ja-1280');
    await page.getByRole('button', { name: auth.signup.submit, exact: true }).click();

    // Back on sign-in with the new user ID filled in, and a toast saying so.
    const url = await landedOn(page, '/login');
    expect(url.searchParams.get('loginId')).toBe(loginId);
    await toast(page, auth.signup.done).waitFor();
    expect(await field(page, auth.fields.loginId).inputValue()).toBe(loginId);
    await screenshot(page, 'login-after-signup-toast');

    await field(page, auth.fields.password).fill(password);
    await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
    await landedOn(page, '/');
    await heading(page, auth.home.title);
    await page.getByText(auth.home.greeting.replace('{{name}}', '佐藤 花子'), exact).waitFor();
    await page.getByText('株式会社ブラウザ試験', exact).waitFor();
    await page.getByText(auth.home.roles.owner, exact).waitFor();
    await page.getByText(auth.home.plans.free, exact).waitFor();
    const tokens = (await storedTokens(page)) as { accessToken: { accessToken: string } } | null;
    expect(tokens?.accessToken.accessToken).toMatch(/^ey/);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), SESSION_TIMESTAMP_KEY)).not.toBeNull();
    await screenshot(page, 'dashboard-ja-1280');

    await page.getByRole('button', { name: common.nav.signOut, exact: true }).click();
    await landedOn(page, '/login');
    await heading(page, auth.login.title);
    await toast(page, auth.signOut.done).waitFor();
    expect(await storedTokens(page)).toBeNull();
    expect(await page.evaluate((key) => window.localStorage.getItem(key), SESSION_TIMESTAMP_KEY)).toBeNull();
    // The server ended the session too: the access token the page held is refused.
    const me = await app.api.call('getCurrentUser', { token: tokens!.accessToken.accessToken });
    expect(me.status).toBe(401);
    // Going back to a protected page asks for sign-in again.
    await page.goto('/');
    expect((await landedOn(page, '/login')).searchParams.get('redirect')).toBe('/');
  });
});

describe('sign-in refusals and password changes', () => {
  it('shows the INVALID_CREDENTIALS message for a wrong password and stores nothing', async () => {
    const org = await signUpOrganization(app);
    const page = await browser.open({ app });
    await page.goto('/login');
    await submitSignIn(page, org.loginId, 'wrong-password1');
    const alert = page.getByRole('alert').filter({ hasText: TEXTS.ja.errors.INVALID_CREDENTIALS });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'ログインに失敗しました。ユーザーIDまたはパスワードが正しくありません。',
    );
    // The alert takes focus so the failure is announced.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'alert');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await storedTokens(page)).toBeNull();
    await screenshot(page, 'login-wrong-password-ja');
  });

  it('sends a user who must change their first password to /initial-password-change, then to the dashboard', async () => {
    const { auth } = TEXTS.ja;
    const org = await signUpOrganization(app, { userName: '初回 次郎' });
    const knex = app.service.deps.knex;
    await knex('users').where({ id: org.ownerId }).update({ must_change_password: true });
    const page = await browser.open({ app });
    await page.goto('/login');
    await submitSignIn(page, org.loginId, org.password);

    const url = await landedOn(page, '/initial-password-change');
    expect(url.searchParams.get('loginId')).toBe(org.loginId);
    expect([...url.searchParams.keys()]).not.toContain('password'); // the password never rides in the URL
    await heading(page, auth.passwordChange.initial.title);
    expect(await storedTokens(page)).toBeNull();
    expect(await field(page, auth.fields.loginId).inputValue()).toBe(org.loginId);
    await screenshot(page, 'initial-password-change-ja-1280');

    const newPassword = 'first-change7';
    await field(page, auth.passwordChange.initial.currentPassword).fill(org.password);
    await field(page, auth.fields.newPassword).fill(newPassword);
    await field(page, auth.fields.newPasswordConfirmation).fill(newPassword);
    await page.getByRole('button', { name: auth.passwordChange.submit, exact: true }).click();

    await landedOn(page, '/');
    await heading(page, auth.home.title);
    await page.getByText(auth.home.greeting.replace('{{name}}', '初回 次郎'), exact).waitFor();
    await toast(page, auth.passwordChange.done).waitFor();
    expect(await storedTokens(page)).not.toBeNull();
    const row = await knex('users').where({ id: org.ownerId }).first('must_change_password');
    expect(row.must_change_password).toBe(false);
    await expect(signIn(app, org.loginId, newPassword)).resolves.toHaveProperty('refreshToken');
    await expect(signIn(app, org.loginId, org.password)).rejects.toThrow(/INVALID_CREDENTIALS/);
  });

  it('resets a forgotten password through the mailed link, end to end; the used link is then invalid', async () => {
    const { auth, common } = TEXTS.ja;
    const org = await signUpOrganization(app);
    const page = await browser.open({ app });
    await page.goto('/login');
    await page.getByRole('link', { name: auth.login.forgotPassword, exact: true }).click();
    await landedOn(page, '/forget-password');
    await heading(page, auth.forgetPassword.title);
    await field(page, auth.fields.loginId).fill(org.loginId);
    await field(page, auth.fields.email).fill(org.email);
    await screenshot(page, 'forget-password-ja-1280');
    await page.getByRole('button', { name: auth.forgetPassword.submit, exact: true }).click();
    await page.getByRole('status').filter({ hasText: auth.forgetPassword.sent }).waitFor();

    const link = await mailedLink(app, org.email, '/forget-password/reset');
    expect(link.url.searchParams.get('token')).toBeTruthy();
    await page.goto(link.path);
    await heading(page, auth.resetPassword.title);
    const newPassword = 'after-reset5';
    await field(page, auth.fields.newPassword).fill(newPassword);
    await field(page, auth.fields.newPasswordConfirmation).fill(newPassword);
    await screenshot(page, 'reset-password-ja-1280');
    await page.getByRole('button', { name: auth.resetPassword.submit, exact: true }).click();

    await landedOn(page, '/login');
    await toast(page, auth.resetPassword.done).waitFor();
    await submitSignIn(page, org.loginId, newPassword);
    await landedOn(page, '/');
    await heading(page, auth.home.title);
    await expect(signIn(app, org.loginId, org.password)).rejects.toThrow(/INVALID_CREDENTIALS/);

    // The same link again: checked as the page opens, it shows the 401 "link invalid" page without a form.
    await page.goto(link.path);
    await heading(page, common.fallback.linkInvalid.heading);
    expect(await page.getByLabel(auth.fields.newPassword, exact).count()).toBe(0);
    await screenshot(page, 'reset-password-link-used');
  });
});

describe('language', () => {
  it('switches to English, keeps it across reloads and sign-in (localStorage), and back to Japanese', async () => {
    const org = await signUpOrganization(app, { userName: 'Jane Doe' });
    const page = await browser.open({ app });
    await page.goto('/login');
    await heading(page, TEXTS.ja.auth.login.title);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), LANGUAGE_KEY)).toBeNull();

    await switchLanguage(page, 'ja', 'en');
    const { auth, common, errors } = TEXTS.en;
    expect(await page.evaluate((key) => window.localStorage.getItem(key), LANGUAGE_KEY)).toBe('en');
    await heading(page, auth.login.title);
    await page.getByRole('link', { name: auth.login.forgotPassword, exact: true }).waitFor();
    await page.reload();
    await heading(page, auth.login.title);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await screenshot(page, 'login-en-1280');

    // Server messages read in English too.
    await submitSignIn(page, org.loginId, 'wrong-password1', 'en');
    await page.getByRole('alert').filter({ hasText: errors.INVALID_CREDENTIALS }).waitFor();

    await field(page, auth.fields.password).fill(org.password);
    await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
    await landedOn(page, '/');
    await heading(page, auth.home.title);
    await page.getByText(auth.home.greeting.replace('{{name}}', 'Jane Doe'), exact).waitFor();
    await page.getByRole('button', { name: common.nav.signOut, exact: true }).waitFor();
    await page.reload();
    await heading(page, auth.home.title);
    await page.getByRole('navigation', { name: common.nav.label }).waitFor();
    await screenshot(page, 'dashboard-en-1280');

    // And back: the signed-in header has the switch too.
    await switchLanguage(page, 'en', 'ja');
    await heading(page, TEXTS.ja.auth.home.title);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), LANGUAGE_KEY)).toBe('ja');
  });
});

describe('toasts', () => {
  for (const viewport of [DESKTOP, MOBILE]) {
    it(`appear at top centre below the navigation (80vw, max 600 px) without close button or progress bar and close by themselves after about 5 s, at ${viewport.width} px`, async () => {
      const { auth, common } = TEXTS.ja;
      const { page } = await browser.openAsOwner({ app, viewport, path: '/', heading: auth.home.title });
      if (viewport.width < 760) await page.getByRole('button', { name: common.nav.openMenu, exact: true }).click();
      await page.getByRole('button', { name: common.nav.signOut, exact: true }).click();
      await page.mouse.move(1, viewport.height - 1); // away from where the toast appears: hovering would pause it

      const shown = toast(page, auth.signOut.done);
      await shown.waitFor();
      const appearedAt = Date.now();
      const box = await page.locator('.Toastify__toast-container').evaluate((container) => {
        const rect = container.getBoundingClientRect();
        return {
          position: getComputedStyle(container).position,
          left: rect.left,
          right: window.innerWidth - rect.right,
          top: rect.top,
          width: rect.width,
          viewportWidth: window.innerWidth,
        };
      });
      expect(box.position).toBe('fixed');
      expect(Math.abs(box.left - box.right)).toBeLessThanOrEqual(2); // horizontally centred
      // At the top, just below the top navigation bar (4.5rem), which a toast must not cover.
      expect(box.top).toBeGreaterThanOrEqual(56);
      expect(box.top).toBeLessThanOrEqual(96);
      expect(box.width).toBeLessThanOrEqual(600);
      expect(Math.abs(box.width - Math.min(0.8 * box.viewportWidth, 600))).toBeLessThanOrEqual(1);
      expect(await shown.locator('.Toastify__close-button').count()).toBe(0);
      // react-toastify always renders the bar (its animation is the timer); hidden means fully transparent.
      const progressOpacity = await shown.evaluate((element) => {
        const bar = element.querySelector('.Toastify__progress-bar--wrp');
        return bar ? getComputedStyle(bar).opacity : '0';
      });
      expect(progressOpacity).toBe('0');
      // The picture once the toast has finished sliding in (its own animation, not the progress timer inside it).
      await shown.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
      await screenshot(page, `toast-${viewport.width}`);

      await shown.waitFor({ state: 'detached', timeout: TOAST_GONE_WITHIN });
      const visibleFor = Date.now() - appearedAt;
      expect(visibleFor).toBeGreaterThanOrEqual(3_500); // it stayed (auto-close 5000 ms), it did not just flash
      expect(visibleFor).toBeLessThanOrEqual(TOAST_GONE_WITHIN);
    });
  }
});

describe('small screens', () => {
  it('sign-in and dashboard work at 360 × 740 without horizontal scrolling, with the menu behind a button', async () => {
    const { auth, common } = TEXTS.ja;
    const org = await signUpOrganization(app, { organizationName: '株式会社スマホ' });
    const page = await browser.open({ app, viewport: MOBILE });
    await page.goto('/login');
    await heading(page, auth.login.title);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'login-ja-360');

    await submitSignIn(page, org.loginId, org.password);
    await landedOn(page, '/');
    await heading(page, auth.home.title);
    await page.getByText('株式会社スマホ', exact).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const signOut = page.getByRole('button', { name: common.nav.signOut, exact: true });
    expect(await signOut.isVisible()).toBe(false);
    await screenshot(page, 'dashboard-ja-360');

    const menu = page.getByRole('button', { name: common.nav.openMenu, exact: true });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await signOut.waitFor();
    expect(
      await page.getByRole('button', { name: common.nav.closeMenu, exact: true }).getAttribute('aria-expanded'),
    ).toBe('true');
    await screenshot(page, 'dashboard-ja-360-menu');
    await signOut.click();
    await landedOn(page, '/login');
    expect(await storedTokens(page)).toBeNull();
  });
});

describe('idle timeout', () => {
  it('after 30 minutes without activity, focus sends the user to /login with the timeout message; sign-in returns to the original URI', async () => {
    const { errors } = TEXTS.ja;
    const org = await signUpOrganization(app);
    const page = await browser.open({ app });
    // The page's clock must be ours before the workbench reads Date.now().
    await page.clock.install();
    const original = '/business-flows/abc?tab=docs';
    await page.goto(original);
    let url = await landedOn(page, '/login');
    expect(url.searchParams.get('redirect')).toBe(original);
    await submitSignIn(page, org.loginId, org.password);
    url = await landedOn(page, '/business-flows/abc');
    expect(url.search).toBe('?tab=docs');
    await heading(page, TEXTS.ja.common.frames.businessFlow);
    expect(await storedTokens(page)).not.toBeNull();

    // 31 minutes pass without a click or a key, in the browser and on the server.
    await page.clock.fastForward('31:00');
    app.clock.advance(31 * MINUTE);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));

    url = await landedOn(page, '/login');
    expect(url.searchParams.get('redirect')).toBe(original);
    expect(url.searchParams.get('timeout')).toBe('1');
    await page.getByRole('status').filter({ hasText: errors.SESSION_TIMEOUT }).waitFor();
    expect(await storedTokens(page)).toBeNull();
    expect(await page.evaluate((key) => window.localStorage.getItem(key), SESSION_TIMESTAMP_KEY)).toBeNull();
    await screenshot(page, 'login-session-timeout-ja-1280');

    await submitSignIn(page, org.loginId, org.password);
    url = await landedOn(page, '/business-flows/abc');
    expect(url.search).toBe('?tab=docs');
    await heading(page, TEXTS.ja.common.frames.businessFlow);
    expect(await page.getByText(errors.SESSION_TIMEOUT).count()).toBe(0);
  });

  it('before 30 minutes, focus changes nothing and activity keeps the session alive', async () => {
    const org = await signUpOrganization(app);
    const page = await browser.open({ app });
    await page.clock.install();
    await signInToDashboard(page, org.loginId);
    await page.clock.fastForward('29:00');
    // A click is activity: the inactivity clock starts again from now.
    await page.getByRole('heading', { level: 1 }).click();
    const touched = await page.evaluate(
      (key) => Number(window.localStorage.getItem(key)) - Date.now(),
      SESSION_TIMESTAMP_KEY,
    );
    expect(Math.abs(touched)).toBeLessThan(5_000);
    await page.clock.fastForward('29:00');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    expect(new URL(page.url()).pathname).toBe('/');
    await heading(page, TEXTS.ja.auth.home.title);
    expect(await storedTokens(page)).not.toBeNull();
  });
});
