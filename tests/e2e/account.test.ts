import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import en from '../../web/src/features/account/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/account/i18n/ja.json' with { type: 'json' };
import signingJa from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { signInBody } from '../helpers/accounts.ts';
import { exact, heading, landedOn, PASSWORD, signIn, TEXTS, toast, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';
import { sealPng } from '../helpers/signing.ts';

// The account screen (/account) in chromium against the real service: reached from the top navigation, name and
// mobile number saved, the password changed (a wrong current password refused at its field), a seal image
// uploaded, the other devices signed out (their refresh then fails), and the language switched through the screen.

const app = useApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '100' } });
const browser = useBrowser();

const OTHER_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Mobile/15E148 Safari/604.1';
// Browser and system names are product names; the signed-in test browser is headless Chrome on Linux.
const PRODUCT_NAMES = ['Chrome', 'Safari', 'Linux', 'iOS'];

const form = (page: Page, title: string) => page.getByRole('form', { name: title });

describe('account screen', () => {
  it('changes the name, mobile number and password, uploads a seal image and signs the other devices out', async () => {
    const { org, pair, page } = await browser.openAsOwner({ app, path: '/' });
    // The same user signed in on a phone as well.
    const phone = await signIn(app, org.loginId, PASSWORD, {
      'user-agent': OTHER_AGENT,
      'x-forwarded-for': '203.0.113.7',
    });

    await page.getByRole('navigation').getByRole('link', { name: TEXTS.ja.common.nav.account, exact: true }).click();
    await landedOn(page, '/account');
    await heading(page, ja.title);
    const sessions = page.getByRole('region', { name: ja.sessions.title });
    await sessions.getByText(ja.sessions.current, exact).waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await captureScreens(page, 'account', { allow: PRODUCT_NAMES });

    // Name.
    const profile = form(page, ja.profile.title);
    await profile.getByLabel(ja.profile.name, exact).fill('鈴木 一郎');
    await profile.getByRole('button', { name: ja.save, exact: true }).click();
    await toast(page, ja.saved).waitFor();
    const me = async () =>
      (await app.api.call('getCurrentUser', { token: pair.authorizationToken })).body.data.attributes;
    expect((await me()).name).toBe('鈴木 一郎');

    // Mobile number: a landline is refused at the field before anything is sent, a mobile number is stored as digits.
    const mobile = form(page, ja.mobile.title);
    await mobile.getByLabel(ja.mobile.label, exact).fill('03-1234-5678');
    await mobile.getByRole('button', { name: ja.save, exact: true }).click();
    await mobile.getByText(ja.mobile.invalid, exact).waitFor();
    await mobile.getByLabel(ja.mobile.label, exact).fill('090-1234-5678');
    await mobile.getByRole('button', { name: ja.save, exact: true }).click();
    await toast(page, ja.mobile.saved).waitFor();
    expect((await me()).mobilePhone).toBe('09012345678');

    // Seal image.
    const seals = page.getByRole('region', { name: ja.seals.title });
    await seals.getByLabel(signingJa.sealImages.file, exact).setInputFiles({
      name: 'hanko.png',
      mimeType: 'image/png',
      buffer: sealPng(120),
    });
    await seals.getByLabel(signingJa.sealImages.name, exact).fill('角印');
    await seals.getByRole('button', { name: signingJa.sealImages.upload, exact: true }).click();
    await toast(page, signingJa.sealImages.uploaded).waitFor();
    await expect
      .poll(() =>
        seals.getByRole('img', { name: '角印', exact: true }).evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(120);

    // Sign the phone out (with the others button and its confirmation).
    await sessions.getByRole('button', { name: ja.sessions.signOutOthers, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ja.sessions.othersTitle });
    await dialog.getByText(ja.sessions.othersBody.replace('{{count}}', '1'), exact).waitFor();
    await dialog.getByRole('button', { name: ja.sessions.signOutOthers, exact: true }).click();
    await toast(page, ja.sessions.othersDone).waitFor();
    await sessions.getByText(ja.sessions.onlyThis, exact).waitFor();
    const refreshed = await app.api.call('refreshAuth', { body: { data: { type: 'Auth', attributes: phone } } });
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.errors[0].code).toBe('SESSION_REVOKED');

    // Password: a wrong current password is refused at its field; then the change.
    const password = form(page, ja.password.title);
    const NEW = 'brand-new-pass9';
    await password.getByLabel(ja.password.current, exact).fill('not-my-password1');
    await password.getByLabel(ja.password.new, exact).fill(NEW);
    await password.getByLabel(ja.password.confirmation, exact).fill(NEW);
    await password.getByRole('button', { name: ja.password.submit, exact: true }).click();
    await password.getByText(TEXTS.ja.errors.CURRENT_PASSWORD_WRONG, exact).waitFor();
    await captureScreens(page, 'account-password-refused', { allow: PRODUCT_NAMES });
    await password.getByLabel(ja.password.current, exact).fill(PASSWORD);
    await password.getByRole('button', { name: ja.password.submit, exact: true }).click();
    await toast(page, ja.password.done).waitFor();
    expect(await password.getByLabel(ja.password.current, exact).inputValue()).toBe('');
    expect((await app.api.call('signIn', { body: signInBody(org.loginId, NEW) })).status).toBe(201);
    // This device stays signed in.
    expect((await app.api.call('getCurrentUser', { token: pair.authorizationToken })).status).toBe(200);
  });

  it('switches the language through the screen (and the account stores it), in English at 1280 and 360', async () => {
    const { pair, page } = await browser.openAsOwner({ app, path: '/account', heading: ja.title });
    const profile = form(page, ja.profile.title);
    await profile.getByLabel(ja.profile.locale, exact).selectOption('en');
    await Promise.all([page.waitForEvent('load'), profile.getByRole('button', { name: ja.save, exact: true }).click()]);
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await heading(page, en.title);
    const me = await app.api.call('getCurrentUser', { token: pair.authorizationToken });
    expect(me.body.data.attributes.locale).toBe('en');
    await page.getByRole('region', { name: en.sessions.title }).getByText(en.sessions.current, exact).waitFor();
    await captureScreens(page, 'account', { allow: PRODUCT_NAMES });
  });
});
