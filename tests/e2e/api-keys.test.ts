import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import en from '../../web/src/features/api-keys/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/api-keys/i18n/ja.json' with { type: 'json' };
import { exact, field, TEXTS, toast, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';

// The API keys settings screen in chromium against the real service: an administrator creates a key, sees its
// secret once (and it works against the API), reissues it and revokes it after a confirmation.

const app = useApp();
const browser = useBrowser();

type Texts = typeof ja;

/** Creates a key with one scope on the screen and returns the secret it shows once. */
async function createKey(page: Page, t: Texts, name: string): Promise<string> {
  await field(page, t.form.name).fill(name);
  await page.getByLabel(t.scopes.flows_read, exact).check();
  await page.getByRole('button', { name: t.form.create, exact: true }).click();
  await page.getByText(t.secret.onlyOnce, exact).waitFor();
  const secret = (await page.getByTestId('api-key-secret').textContent()) ?? '';
  expect(secret).toMatch(/^kyk_[A-Za-z0-9_-]{43}$/);
  return secret;
}

describe('API keys screen', () => {
  it('creates a key, shows its secret once, and revokes it after a confirmation (ja)', async () => {
    const { page } = await browser.openAsOwner({
      app,
      plan: 'standard',
      path: '/organizations/settings/api-keys',
      heading: ja.title,
    });
    await page.getByRole('link', { name: TEXTS.ja.common.settings.sections.apiKeys, exact: true }).waitFor();
    await page.getByText(ja.list.empty, exact).waitFor();
    await captureScreens(page, 'api-keys-empty');

    const secret = await createKey(page, ja, '基幹システム');
    await captureScreens(page, 'api-keys-secret');
    expect((await app.api.call('listWorkspaces', { token: secret })).status).toBe(200);

    // Once closed, the secret is gone from the screen for good; the card shows the key's prefix only.
    await page.getByRole('button', { name: ja.secret.done, exact: true }).click();
    await expect.poll(() => page.getByTestId('api-key-secret').count()).toBe(0);
    const card = page.getByTestId('api-key-card').filter({ hasText: '基幹システム' });
    await card.getByText(ja.status.active, exact).waitFor();
    expect(await page.content()).not.toContain(secret);
    await card.getByText(ja.list.unused, exact).waitFor();

    await page
      .getByRole('button', { name: ja.revoke.labelFor.replace('{{name}}', '基幹システム'), exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: ja.revoke.title });
    await dialog.getByText(ja.revoke.confirm.replace('{{name}}', '基幹システム'), exact).waitFor();
    await captureScreens(page, 'api-keys-revoke');
    await dialog.getByRole('button', { name: ja.revoke.action, exact: true }).click();
    await toast(page, ja.revoke.done.replace('{{name}}', '基幹システム')).waitFor();
    await card.getByText(ja.status.revoked, exact).waitFor();
    const refused = await app.api.call('listWorkspaces', { token: secret });
    expect([refused.status, refused.body.errors[0].code]).toEqual([401, 'API_KEY_REVOKED']);
    await captureScreens(page, 'api-keys-list');
  }, 120_000);

  it('reissues a key: the new secret is shown once with until when the old one works (en)', async () => {
    const { page } = await browser.openAsOwner({
      app,
      plan: 'standard',
      language: 'en',
      path: '/organizations/settings/api-keys',
      heading: en.title,
    });
    await captureScreens(page, 'api-keys-empty');
    const old = await createKey(page, en, 'ERP link');
    await captureScreens(page, 'api-keys-secret', { allow: ['ERP link'] });
    await page.getByRole('button', { name: en.secret.done, exact: true }).click();
    expect((await app.api.call('listWorkspaces', { token: old })).status).toBe(200);

    await page.getByRole('button', { name: en.rotate.labelFor.replace('{{name}}', 'ERP link'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en.rotate.title });
    await dialog.getByLabel(en.rotate.overlap).selectOption('1');
    await captureScreens(page, 'api-keys-rotate', { allow: ['ERP link'] });
    await dialog.getByRole('button', { name: en.rotate.action, exact: true }).click();
    await page.getByText(en.secret.onlyOnce, exact).waitFor();
    const fresh = (await page.getByTestId('api-key-secret').textContent()) ?? '';
    expect(fresh).not.toBe(old);
    await page.getByText(/^The previous key keeps working until /).waitFor();
    await captureScreens(page, 'api-keys-rotated', { allow: ['ERP link'] });
    expect((await app.api.call('listWorkspaces', { token: fresh })).status).toBe(200);
    expect((await app.api.call('listWorkspaces', { token: old })).status).toBe(200);
  }, 120_000);

  it('tells a free-plan administrator that API keys need the standard plan', async () => {
    const { page } = await browser.openAsOwner({ app, path: '/organizations/settings/api-keys', language: 'ja' });
    await page.getByText(ja.planRequired, exact).waitFor();
  });
});
