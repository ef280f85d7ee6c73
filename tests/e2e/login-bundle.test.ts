import { expect, it } from 'vitest';
import { measureLoginRoute } from '../../bench/web-size.ts';
import { TEXTS, useApp, useBrowser } from '../helpers/browser.ts';

// `npm run bench` reports the size of what /login loads, computed from web/dist; this checks that computation
// against what chromium really fetches when it opens the page.

const app = useApp();
const browser = useBrowser();

it('opening /login fetches exactly the scripts and stylesheets bench/web-size.ts counts, and no lazy screen', async () => {
  const page = await browser.open({ app });
  const fetched = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/\.(js|css)$/.test(url.pathname)) fetched.add(url.pathname);
  });
  await page.goto('/login');
  await page.getByRole('heading', { level: 1, name: TEXTS.ja.auth.login.title, exact: true }).waitFor();
  await page.getByLabel(TEXTS.ja.auth.fields.loginId, { exact: true }).fill('someone');
  await page.waitForLoadState('networkidle');

  const counted = measureLoginRoute().assets.map((asset) => asset.file);
  expect([...fetched].sort()).toEqual([...counted].sort());
});
