import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../core/auth/passwords.ts';
import ja from '../../web/src/features/logs/i18n/ja.json' with { type: 'json' };
import { currentTermsId, signInBody, uniqueLoginId } from '../helpers/accounts.ts';
import {
  exact,
  MOBILE,
  PASSWORD,
  type SessionTokens,
  signIn,
  signUpOrganization,
  TEXTS,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';

// The logs screen in chromium against the real service, at 360 px wide.

const app = useApp();
const browser = useBrowser();

function openScreen(session: SessionTokens) {
  return browser.openSignedIn({
    app,
    session,
    viewport: MOBILE,
    path: '/organizations/settings/logs',
    heading: ja.title,
  });
}

describe('logs screen', () => {
  it('downloads the last 7 days under the server file name, refuses 32 days and verifies the chain', async () => {
    const org = await signUpOrganization(app);
    const page = await openScreen(await signIn(app, org.loginId, org.password));

    const from = page.getByLabel(ja.range.from, exact);
    const to = page.getByLabel(ja.range.to, exact);
    const toValue = await to.inputValue();
    const sixDaysBefore = new Date(Date.parse(`${toValue}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
    expect(await from.inputValue()).toBe(sixDaysBefore);

    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: ja.download.operationLogs, exact: true }).click();
    const download = await downloaded;
    const compact = (date: string) => date.replace(/-/g, '');
    expect(download.suggestedFilename()).toBe(`operation-logs_${compact(sixDaysBefore)}-${compact(toValue)}.csv`);
    const content = readFileSync((await download.path())!, 'utf8');
    expect(content.startsWith('\uFEFFid,timestamp,')).toBe(true);
    await page.getByRole('status').filter({ hasText: download.suggestedFilename() }).waitFor();

    // 32 days: refused next to the field, nothing requested.
    const before = new Date(Date.parse(`${toValue}T00:00:00Z`) - 31 * 86_400_000).toISOString().slice(0, 10);
    await from.fill(before);
    await page.getByRole('button', { name: ja.download.signRecords, exact: true }).click();
    const tooLong = TEXTS.ja.errors.LOG_RANGE_TOO_LONG.replace('{{max}}', '31');
    await page.locator('.field-error').getByText(tooLong, exact).waitFor();
    expect(await to.getAttribute('aria-invalid')).toBe('true');

    await page.getByRole('button', { name: ja.verify.operationLogs, exact: true }).click();
    const intact = ja.verify.valid.replace('{{what}}', ja.verify.names.operationLogs).split('{{count}}')[0]!;
    await page.getByRole('status').filter({ hasText: intact }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    const logged = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: org.organizationId, action: 'logs.downloaded' });
    expect(logged).toHaveLength(1);
  });

  it('shows a member the permission message instead of the form', async () => {
    const org = await signUpOrganization(app);
    const loginId = uniqueLoginId('member');
    await app.service.deps.knex('users').insert({
      organization_id: org.organizationId,
      login_id: loginId,
      name: 'メンバー',
      email: `${loginId}@example.com`,
      password_hash: await hashPassword(PASSWORD),
    });
    const signedIn = await app.api.call('signIn', { body: signInBody(loginId, PASSWORD, await currentTermsId(app)) });
    const page = await openScreen(signedIn.body.data.attributes);
    await page.getByText(ja.forbidden, exact).waitFor();
    expect(await page.getByLabel(ja.range.from, exact).count()).toBe(0);
  });
});
