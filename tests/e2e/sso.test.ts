import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../web/src/features/sso/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/sso/i18n/ja.json' with { type: 'json' };
import { insertUser } from '../helpers/accounts.ts';
import { exact, field, heading, landedOn, TEXTS, toast, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';
import { OidcTestProvider } from '../peers/oidc-provider.ts';

// Single sign-on in chromium against the real service and a real OpenID provider (oidc-provider, its own login
// form) running in this test: an administrator registers the provider, a user signs in through
// /{orgCode}/sso-login at the provider's form and lands on the home screen.

const CLIENT = { clientId: 'keiyaku-e2e', clientSecret: 'keiyaku-e2e-secret-0123456789' };

const app = useApp({ env: { KEIYAKU_PLUGIN_SSO_ALLOW_INSECURE_ISSUERS: 'true' } });
const browser = useBrowser();
let idp: OidcTestProvider;

beforeAll(async () => {
  // The redirect URI is the page origin (spec §7), known once the service listens.
  idp = await OidcTestProvider.start([{ ...CLIENT, redirectUris: [`${app.url}/`] }]);
});
afterAll(() => idp?.close());

/** Signs in at the provider's own (development) login form as `login`. */
async function providerLogin(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

async function orgCodeOf(organizationId: string): Promise<string> {
  const row = await app.service.deps.knex('organizations').where({ id: organizationId }).first('code');
  return row.code as string;
}

describe('single sign-on', () => {
  it('an administrator registers the provider; a user signs in through /{orgCode}/sso-login and lands home', async () => {
    const { org, page } = await browser.openAsOwner({
      app,
      plan: 'professional',
      path: '/organizations/settings/sso',
      heading: ja.settings.title,
    });
    const code = await orgCodeOf(org.organizationId);
    await page.getByRole('link', { name: TEXTS.ja.common.settings.sections.sso, exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('sso-redirect-uri').textContent()).toBe(`${app.url}/`);
    await page.getByText(ja.settings.notConfigured, exact).waitFor();
    await captureScreens(page, 'sso-settings', { allow: [code] });

    await field(page, ja.settings.issuer).fill(idp.issuer);
    await field(page, ja.settings.clientId).fill(CLIENT.clientId);
    await field(page, ja.settings.clientSecret).fill(CLIENT.clientSecret);
    await page.getByLabel(ja.settings.ssoOnly, exact).check();
    await page.getByRole('button', { name: ja.settings.save, exact: true }).click();
    await toast(page, ja.settings.saved).waitFor();
    await page.getByText(ja.settings.configured, exact).waitFor();
    await page.getByText(ja.settings.clientSecretKept, exact).waitFor();
    await expect.poll(() => field(page, ja.settings.clientSecret).inputValue()).toBe('');

    // A member of the organization the provider knows by the same, verified, address.
    const loginId = await insertUser(app, org.organizationId, { name: '鈴木 一郎' });
    const { email } = await app.service.deps.knex('users').where({ login_id: loginId }).first('email');
    idp.accounts.set('ichiro', { email, emailVerified: true, name: 'Ichiro Suzuki' });

    const user = await browser.open({ app, language: 'ja' });
    // SSO only: the password is refused with a way to the organization's single sign-on.
    await user.goto('/login');
    await field(user, TEXTS.ja.auth.fields.loginId).fill(loginId);
    await field(user, TEXTS.ja.auth.fields.password).fill('correct-horse1');
    await user.getByRole('button', { name: TEXTS.ja.auth.login.submit, exact: true }).click();
    await user.getByText(TEXTS.ja.errors.SSO_REQUIRED).first().waitFor();
    await user.getByRole('link', { name: TEXTS.ja.auth.login.ssoOfOrganization, exact: true }).click();

    await providerLogin(user, 'ichiro');
    // Back at the page origin with the code: the first sign-in asks for the terms, then home.
    await user.getByLabel(TEXTS.ja.auth.terms.agree).check();
    await user.getByRole('button', { name: ja.complete.agree, exact: true }).click();
    await landedOn(user, '/');
    await heading(user, TEXTS.ja.auth.home.title);
    expect(new URL(user.url()).search).toBe('');
    const signedIn = await app.service.deps
      .knex('operation_logs as l')
      .join('users as u', 'u.id', 'l.actor_user_id')
      .where({ 'l.action': 'auth.signed_in', 'u.login_id': loginId })
      .first('l.details');
    expect(signedIn.details).toMatchObject({ method: 'sso', issuer: idp.issuer, subject: 'ichiro' });

    // The next time (from /sso with the code typed) no terms are owed: straight home after the provider.
    const again = await browser.open({ app, language: 'ja' });
    await again.goto('/login');
    await again.getByRole('link', { name: TEXTS.ja.auth.login.sso, exact: true }).click();
    await field(again, ja.start.orgCode).fill(code);
    await again.getByRole('button', { name: ja.start.submit, exact: true }).click();
    await providerLogin(again, 'ichiro');
    await landedOn(again, '/');
    await heading(again, TEXTS.ja.auth.home.title);
  }, 120_000);

  it('tells a refused sign-in clearly: an unverified address, and a code without single sign-on', async () => {
    const owner = await browser.openAsOwner({ app, plan: 'professional', path: '/organizations/settings/sso' });
    const code = await orgCodeOf(owner.org.organizationId);
    const saved = await app.api.call('updateSsoSettings', {
      token: owner.token,
      body: { data: { type: 'SsoSettings', attributes: { issuer: idp.issuer, ...CLIENT } } },
    });
    expect(saved.status).toBe(200);
    idp.accounts.set('unverified', { email: 'unverified@example.com', emailVerified: false });

    const page = await browser.open({ app, language: 'ja' });
    await page.goto(`/${code}/sso-login`);
    await providerLogin(page, 'unverified');
    await landedOn(page, '/sso');
    const alert = page.getByRole('alert').filter({ hasText: TEXTS.ja.errors.SSO_EMAIL_NOT_VERIFIED });
    await alert.waitFor();
    await alert.getByText(ja.complete.refused, exact).waitFor();
    await page.getByRole('link', { name: ja.complete.retry, exact: true }).waitFor();
    await captureScreens(page, 'sso-refused');

    await page.goto('/no-such-code/sso-login');
    await page.getByRole('alert').filter({ hasText: TEXTS.ja.errors.SSO_NOT_CONFIGURED }).waitFor();

    await page.goto('/sso');
    await heading(page, ja.start.title);
    await page.getByRole('button', { name: ja.start.submit, exact: true }).click();
    await page.getByText(ja.start.required, exact).first().waitFor();
    await captureScreens(page, 'sso-start');

    const english = await browser.open({ app, language: 'en' });
    await english.goto('/sso');
    await heading(english, en.start.title);
    await captureScreens(english, 'sso-start');
    await english.goto(`/${code}/sso-login`);
    await providerLogin(english, 'unverified');
    await english.getByRole('alert').filter({ hasText: TEXTS.en.errors.SSO_EMAIL_NOT_VERIFIED }).waitFor();
    await captureScreens(english, 'sso-refused');
  }, 120_000);

  it('shows the settings in English too, and hides the section below the professional plan', async () => {
    const { page } = await browser.openAsOwner({
      app,
      plan: 'professional',
      language: 'en',
      path: '/organizations/settings/sso',
      heading: en.settings.title,
    });
    await page.getByLabel(en.settings.jitEnabled, exact).check();
    await page.getByLabel(en.settings.jitGroup, exact).waitFor();
    await captureScreens(page, 'sso-settings');

    const standard = await browser.openAsOwner({
      app,
      plan: 'standard',
      path: '/organizations/settings/users',
    });
    await standard.page.getByRole('link', { name: TEXTS.ja.common.settings.sections.ipRestrictions }).waitFor();
    expect(await standard.page.getByRole('link', { name: TEXTS.ja.common.settings.sections.sso }).count()).toBe(0);
  }, 120_000);
});
