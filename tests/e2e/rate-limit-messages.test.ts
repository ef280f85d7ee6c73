// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_POLICIES } from '../../core/access/rate-limits.ts';
import {
  DESKTOP,
  field,
  heading,
  type Language,
  MOBILE,
  screenshot,
  TEXTS,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';

// What a person sees when a public form is over its limit: the user-ID reminder form, after the address got its
// hour's mails, says in the page's language to wait and try again, on a desktop and on a phone.

const app = useApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '1' } });
const browser = useBrowser();

/** Uses up the hour's reminder mails of `email` over the API, as earlier visits to the form would. */
async function spendMailBudget(email: string) {
  for (let i = 0; i < RATE_LIMIT_POLICIES.recoveryMailPerAddress.points; i += 1) {
    const response = await app.api.call('requestUserIdReminder', {
      body: { data: { type: 'UserIdReminder', attributes: { email } } },
    });
    expect(response.status).toBe(202);
  }
}

describe('rate-limit messages in the workbench', () => {
  const cases: { language: Language; viewport: typeof DESKTOP | typeof MOBILE; name: string }[] = [
    { language: 'ja', viewport: DESKTOP, name: 'ja-1280' },
    { language: 'en', viewport: MOBILE, name: 'en-360' },
    { language: 'ja', viewport: MOBILE, name: 'ja-360' },
  ];
  for (const { language, viewport, name } of cases) {
    it(`tells to wait and try again when the address got its hour's mails (${name})`, async () => {
      const email = `limited-${name}@example.com`;
      await spendMailBudget(email);
      const page = await browser.open({ app, language, viewport });
      const { auth, errors } = TEXTS[language];
      await page.goto('/notice-user-id');
      await heading(page, auth.noticeUserId.title);
      await field(page, auth.fields.email).fill(email);
      await page.getByRole('button', { name: auth.noticeUserId.submit, exact: true }).click();
      await page.getByRole('alert').filter({ hasText: errors.TOO_MANY_REQUESTS }).waitFor();
      // The form stays, filled in, for a later try; the page does not claim the mail was sent.
      expect(await field(page, auth.fields.email).inputValue()).toBe(email);
      expect(await page.getByText(auth.noticeUserId.sent).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await screenshot(page, `rate-limited-reminder-${name}`);
    });
  }
});
