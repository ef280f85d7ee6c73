import { readFile } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import documentsJa from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import tasksJa from '../../web/src/features/tasks/i18n/ja.json' with { type: 'json' };
import ja from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { firstGroupId, userIn } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  mailedLink,
  MOBILE,
  screenshot,
  TEXTS,
  toast,
  useApp,
  useBrowser,
  type Viewport,
} from '../helpers/browser.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { confirmEmailOf, makePkcs12, waitForSmsCode } from '../helpers/signing.ts';

// The signing screens in chromium against the real service and its signing engine (built-in TSA, the business
// operator's key). The malware-scan plugin is left out, so the test records the upload's scan verdict itself; the
// SMS plugin keeps messages in sms_outbox, where the test reads the two-factor code.

const app = useApp({ plugins: BUILT_IN_PLUGINS.filter((plugin) => !/scan/.test(plugin.name)) });
const browser = useBrowser();
const common = TEXTS.ja.common;
const errors = TEXTS.ja.errors as Record<string, string>;

/** Slow steps (PDF rendering, a PAdES signature with its timestamp) on a two-core machine. */
const SIGNING_TIMEOUT = 120_000;

/** A placement's rectangle as signTask takes it. */
interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}
const MOBILE_NUMBER = '09012345678';

/** A red circle on a transparent square, as a PNG: the seal image the user uploads. */
function sealPng(size = 120): Buffer {
  const png = new PNG({ width: size, height: size });
  const centre = size / 2;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const at = (y * size + x) * 4;
      const distance = Math.hypot(x - centre, y - centre);
      const ink = distance < centre - 2 && distance > centre - 12;
      png.data[at] = 200;
      png.data[at + 1] = 30;
      png.data[at + 2] = 30;
      png.data[at + 3] = ink ? 255 : 0;
    }
  }
  return PNG.sync.write(png);
}

/**
 * The organization's owner signed in (its first group holds a workspace and a flow), with a mobile number and,
 * unless told otherwise, a confirmed e-mail address; a scanned PDF whose one task is the owner's group's sign task
 * (business-operator signature, SMS code).
 */
async function signerWithSignTask(options: { viewport?: Viewport; emailConfirmed?: boolean } = {}) {
  const { org, token, page } = await browser.openAsOwner({ app, viewport: options.viewport });
  const { knex } = app.service.deps;
  await knex('users').where({ id: org.ownerId }).update({ mobile_phone: MOBILE_NUMBER });
  if (options.emailConfirmed !== false) await confirmEmailOf(app, org.ownerId);
  const groupId = await firstGroupId(app, org.organizationId);
  const { businessFlowId } = await seedBusinessFlow(app, {
    organizationId: org.organizationId,
    groupId,
    createdBy: org.ownerId,
  });
  const uploaded = await uploadPdf(app, token, businessFlowId, { name: '業務委託契約書' });
  await markScanned(app, uploaded.id);
  const lockVersion = (await app.api.call('getDocument', { token, params: { documentId: uploaded.id } })).body.data
    .attributes.lockVersion;
  const task = { order: 1, type: 'sign', assignee: { kind: 'group', groupId }, required: true };
  const planned = await app.api.call('replaceDocumentTasks', {
    token,
    params: { documentId: uploaded.id },
    body: {
      data: {
        type: 'DocumentTasks',
        attributes: { lockVersion, tasks: [{ ...task, signatureType: 'operator', twoFactor: 'sms' }] },
      },
    },
  });
  expect(planned.status, JSON.stringify(planned.body)).toBe(200);
  return { org, token, page, documentId: uploaded.id, taskId: planned.body.data[0].id as string };
}

/** Drags the element's centre by (dx, dy) CSS pixels with the mouse, in small steps as a hand would. */
async function drag(page: Page, selector: ReturnType<Page['locator']>, dx: number, dy: number) {
  await selector.evaluate((element) => element.scrollIntoView({ block: 'center', inline: 'center' }));
  const box = (await selector.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

/** Opens the settings section from the menu and uploads a seal image named `name`. */
async function uploadSealImage(page: Page, name: string) {
  await page.goto('/organizations/settings/users');
  await page.getByRole('link', { name: common.settings.sections.sealImages, exact: true }).click();
  await heading(page, ja.sealImages.title);
  await page.getByLabel(ja.sealImages.file, exact).setInputFiles({
    name: 'hanko.png',
    mimeType: 'image/png',
    buffer: sealPng(),
  });
  await page.getByLabel(ja.sealImages.name, exact).fill(name);
  await page.getByRole('button', { name: ja.sealImages.upload, exact: true }).click();
  await toast(page, ja.sealImages.uploaded).waitFor();
  const list = page.getByRole('region', { name: ja.sealImages.listTitle });
  await list.getByRole('img', { name, exact: true }).waitFor();
  // The thumbnail is the real image, fetched with the session's token.
  await expect
    .poll(() => list.getByRole('img', { name, exact: true }).evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(120);
}

describe('signing', () => {
  it(
    'places a seal and a handwritten signature, signs with the SMS code, downloads the signed PDF and shows it valid',
    async () => {
      const { token, page, documentId, taskId } = await signerWithSignTask();
      await uploadSealImage(page, '山田の印');
      await screenshot(page, 'signing-seal-images');

      // The task editor shows the stored signature type and code channel of the sign task.
      await page.goto(`/organizations/documents/${documentId}`);
      await heading(page, '業務委託契約書');
      const row = page.getByRole('group', { name: '1行目', exact: true });
      expect(await row.getByLabel(documentsJa.editor.signatureType, exact).inputValue()).toBe('operator');
      expect(await row.getByLabel(documentsJa.editor.twoFactor, exact).inputValue()).toBe('sms');

      // My tasks leads to the signing screen.
      await page.goto('/organizations/tasks');
      await heading(page, tasksJa.title);
      await page
        .getByRole('link', { name: tasksJa.signLabel.replace('{{name}}', '業務委託契約書'), exact: true })
        .click();
      await heading(page, ja.sign.title);
      expect(new URL(page.url()).pathname).toBe(`/organizations/documents/${documentId}/tasks/${taskId}/sign`);
      await page.getByText(ja.signatureTypes.operator, exact).waitFor();
      await page.getByText(ja.twoFactors.sms, exact).waitFor();
      const sheet = page.locator('.sign-sheet');
      await sheet.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });

      // A seal, dragged towards the lower left of the page.
      await page.getByLabel(ja.placements.sealSelect, exact).selectOption({ label: '山田の印' });
      await page.getByRole('button', { name: ja.placements.addSeal, exact: true }).click();
      const seal = sheet.getByRole('group', { name: '印影（1ページ目）', exact: true });
      await seal.waitFor();
      const sheetBox = async () => {
        const [box, page_] = [(await seal.boundingBox())!, (await sheet.boundingBox())!];
        return { x: box.x - page_.x, y: box.y - page_.y };
      };
      const before = await sheetBox();
      await drag(page, seal, -120, 150);
      const after = await sheetBox();
      expect(after.x).toBeLessThan(before.x - 100);
      expect(after.y).toBeGreaterThan(before.y + 130);

      // A handwritten signature drawn with the mouse on the pad.
      await page.getByRole('button', { name: ja.placements.addHandwritten, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: ja.handwriting.title });
      const pad = dialog.getByRole('img', { name: ja.handwriting.pad });
      const area = (await pad.boundingBox())!;
      await page.mouse.move(area.x + area.width * 0.1, area.y + area.height * 0.6);
      await page.mouse.down();
      for (const [fx, fy] of [
        [0.25, 0.3],
        [0.4, 0.7],
        [0.55, 0.35],
        [0.7, 0.65],
        [0.9, 0.4],
      ]) {
        await page.mouse.move(area.x + area.width * fx!, area.y + area.height * fy!, { steps: 5 });
      }
      await page.mouse.up();
      await dialog.getByRole('button', { name: ja.handwriting.place, exact: true }).click();
      const handwritten = sheet.getByRole('group', { name: '手書きサイン（1ページ目）', exact: true });
      await handwritten.waitFor();
      await drag(page, handwritten, 60, -200);
      await screenshot(page, 'signing-placements');

      // The code goes by SMS to the masked number; the outbox has it.
      await page.getByRole('button', { name: ja.code.send, exact: true }).click();
      const sent = page.getByText(/に認証コードを送りました/);
      await sent.waitFor();
      const sentText = (await sent.textContent()) ?? '';
      expect(sentText).toContain('5678');
      expect(sentText).not.toContain(MOBILE_NUMBER);
      // The newest row of the outbox (the SMS plugin's delivery job writes it shortly after the request).
      const code = await waitForSmsCode(app, MOBILE_NUMBER);
      await page.getByLabel(ja.code.label, exact).fill(code);

      const signRequest = page.waitForRequest(
        (request: Request) => request.method() === 'POST' && request.url().endsWith(`/tasks/${taskId}/sign`),
      );
      await page.getByRole('button', { name: ja.form.submit, exact: true }).click();
      const sentBody = (await signRequest).postDataJSON() as {
        data: {
          attributes: { code: string; placements: { kind: string; page: number; rect: Rect }[] };
        };
      };
      await page.getByRole('heading', { name: ja.done.title, exact: true }).waitFor({ timeout: 60_000 });
      await screenshot(page, 'signing-done');

      // The placements went in PDF points with the origin at the lower left: the seal, dragged down and left of
      // the page centre (297.6 × 420.9 pt on A4), sits below and left of it; the signature, dragged up, above.
      const attributes = sentBody.data.attributes;
      expect(attributes.code).toBe(code);
      expect(attributes.placements.map((p) => [p.kind, p.page])).toEqual([
        ['seal', 1],
        ['handwritten', 1],
      ]);
      const [sealRect, handRect] = attributes.placements.map((p) => p.rect);
      for (const rect of [sealRect!, handRect!]) {
        expect(rect.x1).toBeGreaterThanOrEqual(0);
        expect(rect.y1).toBeGreaterThanOrEqual(0);
        expect(rect.x2).toBeLessThanOrEqual(595.28);
        expect(rect.y2).toBeLessThanOrEqual(841.89);
        expect(rect.x1).toBeLessThan(rect.x2);
        expect(rect.y1).toBeLessThan(rect.y2);
      }
      expect((sealRect!.x1 + sealRect!.x2) / 2).toBeLessThan(297);
      expect((sealRect!.y1 + sealRect!.y2) / 2).toBeLessThan(420);
      expect((handRect!.y1 + handRect!.y2) / 2).toBeGreaterThan(421);

      // The signed PDF downloads as a PDF.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: ja.done.download, exact: true }).click(),
      ]);
      const bytes = await readFile((await download.path())!);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.toString('latin1')).toContain('/ByteRange');

      // The verification report shows the signature intact.
      await page.getByRole('link', { name: ja.done.report, exact: true }).click();
      await heading(page, ja.report.title);
      const signature = page.getByRole('region', { name: ja.report.signatureTitle.replace('{{position}}', '1') });
      await signature.getByText(ja.report.integrities.valid, exact).waitFor();
      await page.getByText(ja.report.allIntact, exact).waitFor();
      await signature.getByText(ja.report.coverages['whole-document'], exact).waitFor();
      await screenshot(page, 'signing-report');

      // The signature is the document's second version, and the task is done.
      const detail = await app.api.call('getDocument', { token, params: { documentId } });
      expect(detail.body.data.attributes.versions).toHaveLength(2);
      expect(detail.body.data.attributes.tasks[0].status).toBe('completed');
    },
    SIGNING_TIMEOUT,
  );

  it(
    'at 360 px: without a confirmed e-mail the sign button waits for the mailed arrival-confirmation link',
    async () => {
      const { org, page, documentId, taskId } = await signerWithSignTask({ viewport: MOBILE, emailConfirmed: false });
      const signPath = `/organizations/documents/${documentId}/tasks/${taskId}/sign`;
      await page.goto(signPath);
      await heading(page, ja.sign.title);
      await page.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });
      await page.getByRole('heading', { name: ja.emailConfirmation.title, exact: true }).waitFor();
      expect(await page.getByRole('button', { name: ja.form.submit, exact: true }).count()).toBe(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'signing-email-not-confirmed-360');

      await page.getByRole('button', { name: ja.emailConfirmation.send, exact: true }).click();
      await page.getByText(ja.emailConfirmation.sent.replace('{{email}}', org.email), exact).waitFor();
      const link = await mailedLink(app, org.email, '/arrival-confirmation');

      await page.goto(link.path);
      await heading(page, TEXTS.ja.auth.arrivalConfirmation.title);
      await page.getByText(ja.arrival.done, exact).waitFor();
      await screenshot(page, 'arrival-confirmation-done');

      // A used link is refused.
      await page.goto(link.path);
      await page
        .getByText((TEXTS.ja.errors as Record<string, string>).EMAIL_CONFIRMATION_LINK_INVALID!, exact)
        .waitFor();

      await page.goto(signPath);
      await heading(page, ja.sign.title);
      await page.getByRole('button', { name: ja.form.submit, exact: true }).waitFor();
      expect(await page.getByRole('heading', { name: ja.emailConfirmation.title, exact: true }).count()).toBe(0);
    },
    SIGNING_TIMEOUT,
  );
  it(
    'registers an e-certificate with its PIN, then adds and removes an agent, who sees the owner as a principal',
    async () => {
      const { org, page } = await browser.openAsOwner({ app, viewport: MOBILE });
      const agent = await userIn(app, org.organizationId, [await firstGroupId(app, org.organizationId)], [], {
        name: '佐藤 花子',
      });
      const pin = 'pin-1234';
      const p12 = makePkcs12({ commonName: '山田 太郎', email: org.email, pin });

      await page.goto('/organizations/settings/users');
      await page.getByRole('link', { name: common.settings.sections.eCertificate, exact: true }).click();
      await heading(page, ja.certificate.title);
      const status = page.getByRole('region', { name: ja.certificate.statusTitle });
      await status.getByText(ja.certificateStatuses.not_registered, exact).waitFor();

      const file = page.getByLabel(ja.certificate.file, exact);
      const submit = page.getByRole('button', { name: ja.certificate.register, exact: true });
      await file.setInputFiles({ name: 'yamada.p12', mimeType: 'application/x-pkcs12', buffer: p12 });
      // The confirmation must match (checked here), and the PIN must open the file (checked by the server).
      await page.getByLabel(ja.certificate.pin, exact).fill(pin);
      await page.getByLabel(ja.certificate.pinConfirmation, exact).fill('pin-9999');
      await submit.click();
      await page.getByText(errors.E_CERTIFICATE_PIN_MISMATCH!, exact).waitFor();
      await page.getByLabel(ja.certificate.pin, exact).fill('wrong-pin');
      await page.getByLabel(ja.certificate.pinConfirmation, exact).fill('wrong-pin');
      await submit.click();
      await page.getByText(errors.E_CERTIFICATE_PIN_WRONG!, exact).waitFor();
      expect(await page.getByLabel(ja.certificate.pin, exact).getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel(ja.certificate.pin, exact).fill(pin);
      await page.getByLabel(ja.certificate.pinConfirmation, exact).fill(pin);
      await submit.click();
      await toast(page, ja.certificate.registered).waitFor();
      await status.getByText(ja.certificateStatuses.valid, exact).waitFor();
      // The validity date: a year from now, as the workbench shows dates (Japan time, medium style).
      const until = new Intl.DateTimeFormat('ja', { dateStyle: 'medium', timeZone: 'Asia/Tokyo' }).format(
        new Date(Date.now() + 365 * 24 * 3600 * 1000),
      );
      await status.getByText(until, exact).waitFor();
      await status.getByText('CN=山田 太郎', { exact: false }).first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'signing-e-certificate-360');

      // The owner, an administrator, picks the agent from a user search.
      await status.getByRole('link', { name: ja.certificate.agentsLink, exact: true }).click();
      await heading(page, ja.agents.title);
      await page.getByLabel(ja.agents.search, exact).fill('佐藤');
      await page
        .getByRole('button', { name: ja.agents.addLabel.replace('{{name}}', '佐藤 花子'), exact: true })
        .click();
      await toast(page, ja.agents.added.replace('{{name}}', '佐藤 花子')).waitFor();
      const table = page.getByRole('region', { name: ja.agents.tableLabel });
      await table.getByRole('cell', { name: '佐藤 花子', exact: true }).waitFor();
      await screenshot(page, 'signing-agents-360');

      const principals = await app.api.call('listMyAgents', { token: agent.token });
      expect(principals.body.meta.principals).toEqual([
        { userId: org.ownerId, name: '山田 太郎', certificateStatus: 'valid' },
      ]);

      await table
        .getByRole('button', { name: ja.agents.removeLabel.replace('{{name}}', '佐藤 花子'), exact: true })
        .click();
      const dialog = page.getByRole('dialog', { name: ja.agents.removeTitle });
      await dialog.getByRole('button', { name: ja.agents.remove, exact: true }).click();
      await toast(page, ja.agents.removed).waitFor();
      await page.getByText(ja.agents.empty, exact).waitFor();
      const after = await app.api.call('listMyAgents', { token: agent.token });
      expect(after.body.meta.principals).toEqual([]);

      // The issuer revokes it: the signing module records that when it checks the certificate before a signature
      // (tests/api/revocation.test.ts); the page then says the certificate is invalid, and why.
      await app.service.deps
        .knex('e_certificates')
        .where({ user_id: org.ownerId })
        .update({ revoked_at: new Date('2026-11-20T01:00:00Z'), revocation_reason: 'keyCompromise' });
      await page.goto('/organizations/settings/users');
      await page.getByRole('link', { name: common.settings.sections.eCertificate, exact: true }).click();
      await status.getByText(ja.certificateStatuses.invalid, exact).waitFor();
      await page.getByText(ja.revocationReasons.keyCompromise, { exact: false }).first().waitFor();
      await screenshot(page, 'signing-e-certificate-revoked-360');
    },
    SIGNING_TIMEOUT,
  );
});
