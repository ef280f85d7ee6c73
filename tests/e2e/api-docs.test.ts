import { expect, it } from 'vitest';
import { useApp, useBrowser } from '../helpers/browser.ts';

// The API reference at /docs renders openapi.yaml with the Redoc bundle the service serves itself: no CDN, no
// telemetry, nothing fetched from anywhere but the service.

const app = useApp();
const browser = useBrowser();

it('renders the contract at /docs without a single request leaving the service’s origin', async () => {
  const page = await browser.open({ app });
  const origin = new URL(app.url).origin;
  const foreign: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    // Redoc's search runs in a Worker made from a blob: URL of the page; data: URLs are inline images.
    if (url.protocol === 'blob:' || url.protocol === 'data:') return;
    if (url.origin !== origin) foreign.push(request.url());
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });

  const response = await page.goto('/docs');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  // An operation's summary as openapi.yaml writes it, rendered by Redoc, which lays out the whole 530 KB contract
  // before it shows anything: this test takes 9 s alone on a two-core machine, and ran past 15 s in a loaded run.
  await page.locator('h2', { hasText: 'Create a business flow in a workspace' }).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');

  expect(foreign).toEqual([]);
  expect(refused).toEqual([]);
});

it('serves the contract itself at /docs/openapi.yaml', async () => {
  const response = await fetch(`${app.url}/docs/openapi.yaml`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/yaml/);
  expect(await response.text()).toMatch(/^openapi: 3\.1/m);
});

it('keeps the strict policy of the workbench pages: the /docs relaxation stays on /docs', async () => {
  const docs = await fetch(`${app.url}/docs`);
  expect(docs.headers.get('content-security-policy')).toContain("worker-src 'self' blob:");
  const login = await fetch(`${app.url}/login`, { headers: { accept: 'text/html' } });
  expect(login.headers.get('content-security-policy') ?? '').not.toContain('worker-src');
});
