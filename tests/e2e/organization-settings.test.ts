import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ja from '../../web/src/features/organization/i18n/ja.json' with { type: 'json' };
import { exact, screenshot, TEXTS, useApp, useBrowser } from '../helpers/browser.ts';
import { CorporateNumberApi } from '../peers/corporate-number-api.ts';

// The organization information and password policy screens in chromium against the real service and the local
// corporate number service double.

const NUMBER = '7000012050002';
let peer: CorporateNumberApi;
beforeAll(async () => {
  peer = await CorporateNumberApi.start();
  peer.add({
    corporateNumber: NUMBER,
    name: '国税庁',
    prefectureName: '東京都',
    cityName: '千代田区',
    streetNumber: '霞が関3丁目1-1',
  });
});
afterAll(() => peer?.stop());
// Registered after the peer's hooks: started once the peer runs, closed before it stops.
const app = useApp(() => ({
  env: {
    CORPORATE_NUMBER_API_URL: peer.url,
    CORPORATE_NUMBER_API_APP_ID: 'e2e',
    CORPORATE_NUMBER_API_TIMEOUT_MS: '500',
  },
}));
const browser = useBrowser();

function openAs(path: string, heading: string) {
  return browser.openAsOwner({ app, path, heading });
}

describe('organization settings screens', () => {
  it('looks the corporate number up, uses the registered name, and saves even while the lookup is unavailable', async () => {
    const { pair, page } = await openAs('/organizations/settings/organization', ja.info.title);
    await page.getByLabel(ja.info.corporateNumber, exact).fill(NUMBER);
    await page.getByRole('button', { name: ja.info.lookup, exact: true }).click();
    await page.getByRole('button', { name: ja.info.useFound, exact: true }).click();
    expect(await page.getByLabel(ja.info.name, exact).inputValue()).toBe('国税庁');
    peer.mode = 'error';
    try {
      await page.getByRole('button', { name: ja.info.lookup, exact: true }).click();
      await page.getByText(ja.info.lookupUnavailable, exact).waitFor();
    } finally {
      peer.mode = 'normal';
    }
    await page.getByRole('button', { name: ja.save, exact: true }).click();
    await page.getByRole('status').filter({ hasText: ja.saved }).waitFor();
    await screenshot(page, 'organization-information');
    const saved = await app.api.call('getOrganization', { token: pair.authorizationToken });
    expect(saved.body.data.attributes).toMatchObject({
      name: '国税庁',
      corporateNumber: NUMBER,
      address: '東京都千代田区霞が関3丁目1-1',
    });
  });

  it('saves a stricter password policy and shows a stale update with a reload action', async () => {
    const { pair, page } = await openAs('/organizations/settings/password-policy', ja.policy.title);
    await page.getByLabel(ja.policy.minLength, exact).fill('12');
    await page.getByLabel(ja.policy.requireUppercase, exact).check();
    await page.getByRole('button', { name: ja.save, exact: true }).click();
    await page.getByRole('status').filter({ hasText: ja.saved }).waitFor();
    const policy = await app.api.call('getPasswordPolicy', { token: pair.authorizationToken });
    expect(policy.body.data.attributes).toMatchObject({ minLength: 12, requireUppercase: true, lockVersion: 1 });

    // Another administrator changes the policy meanwhile.
    await app.api.call('updatePasswordPolicy', {
      token: pair.authorizationToken,
      body: { data: { type: 'PasswordPolicy', attributes: { reuseCount: 3, lockVersion: 1 } } },
    });
    await page.getByLabel(ja.policy.minLength, exact).fill('14');
    await page.getByRole('button', { name: ja.save, exact: true }).click();
    await page.getByRole('alert').filter({ hasText: TEXTS.ja.errors.UPDATED_BY_ANOTHER_USER }).waitFor();
    await screenshot(page, 'password-policy-stale');
    await page.getByRole('button', { name: ja.reload, exact: true }).click();
    await expect.poll(() => page.getByLabel(ja.policy.reuseCount, exact).inputValue()).toBe('3');
  });
});
