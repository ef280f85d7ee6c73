import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../web/src/features/webhooks/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/webhooks/i18n/ja.json' with { type: 'json' };
import { exact, field, TEXTS, toast, useApp, useBrowser } from '../helpers/browser.ts';
import { captureScreens } from '../helpers/screens.ts';
import { WebhookReceiver } from '../peers/webhook-receiver.ts';

// The webhooks settings screen in chromium against the real service and a receiver in the test: an administrator
// adds an endpoint, sees its secret once, sends a test event (verified with that secret at the receiver) and sees
// the attempt in the delivery log; a failing endpoint's attempt shows its response code and can be replayed.

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(() => receiver?.close());

const app = useApp({
  env: {
    // The receiver is plain http on 127.0.0.1: allowed for this test only.
    KEIYAKU_PLUGIN_WEBHOOKS_ALLOW_HTTP: 'true',
    KEIYAKU_PLUGIN_WEBHOOKS_ALLOWED_CIDRS: '127.0.0.1/32',
    KEIYAKU_PLUGIN_WEBHOOKS_RETRY_SCHEDULE_SECONDS: '1',
  },
});
const browser = useBrowser();

describe('webhooks screen', () => {
  it('adds an endpoint, shows the secret once, sends a test event and shows it in the log (ja)', async () => {
    const { page } = await browser.openAsOwner({
      app,
      plan: 'standard',
      path: '/organizations/settings/webhooks',
      heading: ja.title,
    });
    await page.getByRole('link', { name: TEXTS.ja.common.settings.sections.webhooks, exact: true }).waitFor();
    await page.getByText(ja.empty, exact).waitFor();
    await captureScreens(page, 'webhooks-empty');

    await page.getByRole('button', { name: ja.add, exact: true }).click();
    await field(page, ja.form.url).fill(receiver.script('/e2e', [200]));
    await field(page, ja.form.description).fill('基幹システム');
    await page.getByLabel(ja.events['task.assigned'], exact).uncheck();
    await captureScreens(page, 'webhooks-form');
    await page.getByRole('button', { name: ja.form.create, exact: true }).click();
    await page.getByText(ja.secret.onlyOnce, exact).waitFor();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    await captureScreens(page, 'webhooks-secret');
    await page.getByRole('button', { name: ja.secret.done, exact: true }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    const card = page.getByTestId('webhook-endpoint').filter({ hasText: '基幹システム' });
    await card.getByText(ja.status.enabled, exact).waitFor();
    await card.getByRole('button', { name: ja.card.test, exact: true }).click();
    await toast(page, ja.card.testSent).waitFor();
    await card.getByText(ja.log.outcomes.success.replace('{{code}}', '200'), exact).waitFor();
    await card.getByRole('cell', { name: ja.events['webhook.test'], exact: true }).waitFor();
    await card.getByText(ja.card.lastSuccess.split('{{')[0]!).waitFor();
    await captureScreens(page, 'webhooks-log');

    const [delivered] = receiver.to('/e2e');
    const event = new Webhook(secret).verify(delivered!.body, delivered!.headers as Record<string, string>) as {
      type: string;
    };
    expect(event.type).toBe('webhook.test');
  }, 120_000);

  it('shows a failed attempt with its response code and replays it (en)', async () => {
    const { page } = await browser.openAsOwner({
      app,
      plan: 'standard',
      language: 'en',
      path: '/organizations/settings/webhooks',
      heading: en.title,
    });
    await page.getByRole('button', { name: en.add, exact: true }).click();
    await field(page, en.form.url).fill(receiver.script('/e2e-failing', [500, 200]));
    await page.getByRole('button', { name: en.form.create, exact: true }).click();
    await page.getByRole('button', { name: en.secret.done, exact: true }).click();
    const card = page.getByTestId('webhook-endpoint');
    await card.getByRole('button', { name: en.card.test, exact: true }).click();
    await card.getByText(en.log.outcomes.http_error.replace('{{code}}', '500'), exact).waitFor();
    await captureScreens(page, 'webhooks-log-failed');
    await card.getByRole('button', { name: en.log.replay, exact: true }).click();
    await toast(page, en.log.replayed).waitFor();
    await card.getByText(en.log.outcomes.success.replace('{{code}}', '200'), exact).waitFor();
    await card
      .getByText(`${en.log.attemptValue.replace('{{attempt}}', '2')}${en.log.triggers.replay}`, exact)
      .waitFor();
    expect(new Set(receiver.to('/e2e-failing').map((r) => r.headers['webhook-id'])).size).toBe(1);
    await captureScreens(page, 'webhooks-replayed');
  }, 120_000);

  it('tells a free-plan administrator that webhooks need the standard plan', async () => {
    const { page } = await browser.openAsOwner({ app, path: '/organizations/settings/webhooks', language: 'ja' });
    await page.getByText(ja.planRequired, exact).waitFor();
  });
});
