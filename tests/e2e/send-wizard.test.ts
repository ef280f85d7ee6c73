// Callbacks passed to page.evaluate run in the browser: they see the DOM.
/*
 * The send wizard, in chromium against the real service and its signing engine. A new organization (signed up over
 * the API) goes from its home screen through 書類 → 宛先 → 署名欄 → 確認 → 送信 with a PDF, an approver of its own
 * group, a partner organization as a signer (found by corporate number) and a one-time user as a signer, placing
 * both signature boxes; every click and fill goes through a counter, printed and held to at most 25 clicks on at most
 * 6 screens. Then each recipient acts from the link of their own mail: the owner approves, the partner's user signs
 * on the signing screen, the guest signs on the guest panel. pdfsig validates the result and the completion
 * certificate names the signers. Also: a draft mails nothing, is listed on the home screen, reopens with ?draft=, and
 * is discarded after a confirmation; every step is captured in ja and en at 1280 and 360 px.
 */
import { execFileSync } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import documentsJa from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import homeEn from '../../web/src/features/home/i18n/en.json' with { type: 'json' };
import homeJa from '../../web/src/features/home/i18n/ja.json' with { type: 'json' };
import oneTimeEn from '../../web/src/features/one-time/i18n/en.json' with { type: 'json' };
import wizardEn from '../../web/src/features/send-wizard/i18n/en.json' with { type: 'json' };
import wizardJa from '../../web/src/features/send-wizard/i18n/ja.json' with { type: 'json' };
import signingEn from '../../web/src/i18n/en/signing.json' with { type: 'json' };
import signingJa from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { signIn, signUpOrganization } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  landedOn,
  type Language,
  mailedLink,
  TEXTS,
  toast,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';
import { markScanned } from '../helpers/documents.ts';
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { captureScreens } from '../helpers/screens.ts';
import { pdfsig, tempFile } from '../helpers/signing.ts';

// No malware scanner in tests: the test marks each uploaded version clean, as the scan job would.
const app = useApp({ plugins: BUILT_IN_PLUGINS.filter((plugin) => !/scan/.test(plugin.name)) });
const browser = useBrowser();
const W = { ja: wizardJa, en: wizardEn };
const HOME = { ja: homeJa, en: homeEn };

/** PDF rendering and three PAdES signatures with their timestamps on a two-core machine. */
const JOURNEY_TIMEOUT = 360_000;

const PARTNER_CORPORATE_NUMBER = '7000012050002';

/**
 * Every click (a press, a choice, a file chosen, a drag) and every fill of the journey goes through here; each
 * action records the screen it ends on (path plus the wizard's step), so the test can say how many it took.
 */
class Journey {
  clicks = 0;
  fills = 0;
  readonly screens: string[] = [];
  readonly log: string[] = [];

  constructor(private readonly page: Page) {
    this.seen();
  }

  private seen() {
    const url = new URL(this.page.url());
    const step = url.searchParams.get('step') ?? (url.searchParams.get('sent') ? 'sent' : '');
    const screen = `${url.pathname}${step ? `#${step}` : ''}`;
    if (this.screens.at(-1) !== screen) this.screens.push(screen);
  }

  /** Waits until the URL settles on the wizard's step (or path) and records it as a screen. */
  async on(predicate: (url: URL) => boolean) {
    await this.page.waitForURL(predicate);
    this.seen();
  }

  async click(what: string, locator: Locator) {
    this.clicks += 1;
    this.log.push(`click ${what}`);
    await locator.click();
    this.seen();
  }

  async check(what: string, locator: Locator) {
    this.clicks += 1;
    this.log.push(`check ${what}`);
    await locator.check();
    this.seen();
  }

  async choose(what: string, locator: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]) {
    this.clicks += 1;
    this.log.push(`choose ${what}`);
    await locator.setInputFiles(files);
    this.seen();
  }

  async fill(what: string, locator: Locator, value: string) {
    this.fills += 1;
    this.log.push(`fill ${what}`);
    await locator.fill(value);
    this.seen();
  }

  /** Drags the element by (dx, dy) CSS pixels with the mouse: one action. */
  async drag(what: string, locator: Locator, dx: number, dy: number) {
    this.clicks += 1;
    this.log.push(`drag ${what}`);
    await locator.evaluate((element) => element.scrollIntoView({ block: 'center', inline: 'center' }));
    const box = (await locator.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx, y + dy, { steps: 8 });
    await this.page.mouse.up();
    this.seen();
  }

  distinctScreens() {
    return [...new Set(this.screens)];
  }
}

const wizardStep = (step: string) => (url: URL) =>
  url.pathname === '/organizations/business-flows/new' && url.searchParams.get('step') === step;

/** The draft's id from the wizard's URL. */
const draftIdOf = (page: Page) => new URL(page.url()).searchParams.get('draft')!;

/** Marks every document of the flow scanned clean (the scan job's verdict). */
async function scanFlowDocuments(businessFlowId: string) {
  const documents = await app.service.deps.knex('documents').where({ business_flow_id: businessFlowId }).select('id');
  for (const { id } of documents) await markScanned(app, id as string);
  return documents.map((d) => d.id as string);
}

/** The owner's new organization and the partner organization (with a corporate number), both signed up. */
async function organizations() {
  const owner = await signUpOrganization(app, { organizationName: '株式会社発注元', userName: '山田 太郎' });
  const ownerPair = await signIn(app, owner.loginId, owner.password);
  const partner = await signUpOrganization(app, {
    organizationName: '株式会社取引先',
    userName: '佐藤 花子',
    corporateNumber: PARTNER_CORPORATE_NUMBER,
  });
  const partnerPair = await signIn(app, partner.loginId, partner.password);
  return { owner, ownerPair, partner, partnerPair };
}

/** Draws a zigzag on the handwriting pad with the mouse and places it. */
async function drawSignature(page: Page, language: Language) {
  const s = { ja: signingJa, en: signingEn }[language];
  const dialog = page.getByRole('dialog', { name: s.handwriting.title });
  const pad = dialog.getByRole('img', { name: s.handwriting.pad });
  const area = (await pad.boundingBox())!;
  await page.mouse.move(area.x + area.width * 0.1, area.y + area.height * 0.6);
  await page.mouse.down();
  for (const [fx, fy] of [
    [0.25, 0.3],
    [0.4, 0.7],
    [0.55, 0.35],
    [0.7, 0.65],
    [0.9, 0.4],
  ] as const) {
    await page.mouse.move(area.x + area.width * fx, area.y + area.height * fy, { steps: 5 });
  }
  await page.mouse.up();
  await dialog.getByRole('button', { name: s.handwriting.place, exact: true }).click();
}

/** Fills the one signature field on the signing board with a handwritten signature. */
async function fillSignatureField(page: Page, language: Language) {
  const s = { ja: signingJa, en: signingEn }[language];
  await page.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
  const field = page.locator('.sign-sheet [data-field-kind="signature"]');
  await field.waitFor();
  await field.locator('.field-box-button').click();
  const dialog = page.getByRole('dialog', { name: s.fields.fillTitle.replace('{{name}}', s.fields.kinds.signature) });
  await dialog.getByRole('button', { name: s.placements.addHandwritten, exact: true }).click();
  await drawSignature(page, language);
  await expect.poll(() => field.getAttribute('data-filled')).toBe('true');
}

/** The newest mail to `email` with a guest link (/onetime/auth?token=…), once there are more than `seen`. */
async function newestGuestLink(email: string, seen: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mails = (await readOutbox(app))
      .filter((m) => recipientOf(m).includes(email) && /\/onetime\/auth\?token=/.test(m.text ?? ''))
      .sort((a, b) => (a.date?.getTime() ?? 0) - (b.date?.getTime() ?? 0));
    if (mails.length > seen) {
      const link = /https?:\/\/\S+\/onetime\/auth\?token=\S+/.exec(mails.at(-1)!.text ?? '')![0];
      const url = new URL(link);
      return { count: mails.length, path: `${url.pathname}${url.search}` };
    }
    if (Date.now() > deadline) throw new Error(`no new guest link mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const guestLinkCount = async (email: string) =>
  (await readOutbox(app)).filter((m) => recipientOf(m).includes(email) && /\/onetime\/auth\?token=/.test(m.text ?? ''))
    .length;

/** The newest 6-digit code mailed to `email` after `action`. */
async function codeAfter(email: string, action: () => Promise<unknown>) {
  const codes = async () =>
    (await readOutbox(app)).filter(
      (m) => recipientOf(m).includes(email) && /認証コード|verification code/.test(m.subject ?? ''),
    );
  const before = (await codes()).length;
  await action();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = await codes();
    if (mails.length > before) {
      mails.sort((a, b) => (a.date?.getTime() ?? 0) - (b.date?.getTime() ?? 0));
      return /(?<![\w-])(\d{6})(?![\w-])/.exec(mails.at(-1)!.text ?? '')![1]!;
    }
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The text of a PDF as poppler's pdftotext reads it. */
function pdfText(pdf: Uint8Array): string {
  return execFileSync('pdftotext', ['-layout', tempFile('certificate.pdf', pdf), '-'], { encoding: 'utf8' });
}

/** A flow created (not as a draft) over the API in the caller's first workspace. */
async function seedSentFlow(token: string) {
  const workspaces = await app.api.call('listWorkspaces', { token });
  const workspaceId = workspaces.body.data[0].id as string;
  const created = await app.api.call('createBusinessFlow', {
    token,
    params: { workspaceId },
    body: { data: { type: 'BusinessFlow', attributes: { name: 'Mutual NDA' } } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { businessFlowId: created.body.data.id as string };
}

describe('the send wizard', () => {
  it(
    'sends a PDF to an approver of its own group, a partner signer and a guest signer with placed boxes from the home screen in at most 25 clicks on 6 screens; each signs from their mail and pdfsig validates the result',
    async () => {
      const { owner, ownerPair, partner, partnerPair } = await organizations();
      const guest = { name: '鈴木 一郎', email: `wizard-guest-${Math.random().toString(36).slice(2)}@example.com` };
      const pdf = await buildPdf();
      const w = wizardJa;

      // What the parties were mailed before (the sign-up's welcome mails): the draft adds nothing to it.
      const parties = [owner.email, partner.email, guest.email];
      const mailsToParties = async () =>
        (await readOutbox(app))
          .filter((m) => parties.some((email) => recipientOf(m).includes(email)))
          .map((m) => `${recipientOf(m)}: ${m.subject}`)
          .sort();
      for (const email of [owner.email, partner.email]) await waitForMail(app, (m) => recipientOf(m).includes(email));
      const mailedBefore = await mailsToParties();

      const page = await browser.openSignedIn({ app, language: 'ja', session: ownerPair, path: '/' });
      await heading(page, TEXTS.ja.auth.home.title);
      const journey = new Journey(page);

      // Home → ① 書類: one PDF; the title and the workspace take their defaults.
      await journey.click('send', page.getByRole('link', { name: homeJa.newSend, exact: true }));
      await heading(page, w.title);
      await journey.choose('PDF', page.getByLabel(w.documents.choose, exact), [
        { name: '業務委託契約書.pdf', mimeType: 'application/pdf', buffer: pdf },
      ]);
      await page.getByText('業務委託契約書.pdf', exact).waitFor();
      await captureScreens(page, 'send-wizard-documents');
      await journey.click('next', page.getByRole('button', { name: w.next, exact: true }));
      await journey.on(wizardStep('recipients'));
      const businessFlowId = draftIdOf(page);
      const [documentId] = await scanFlowDocuments(businessFlowId);
      const flowRow = await app.service.deps.knex('business_flows').where({ id: businessFlowId }).first();
      expect(flowRow.status).toBe('draft');
      expect(flowRow.name).toBe('業務委託契約書');

      // ② 宛先: the own group approves (its default), the partner and the guest sign (theirs).
      await journey.click('add group', page.getByRole('button', { name: w.recipients.addGroup, exact: true }));
      await page.getByText('株式会社発注元（グループ）', exact).waitFor();
      await journey.fill(
        'corporate number',
        page.getByLabel(w.recipients.corporateNumber, exact),
        PARTNER_CORPORATE_NUMBER,
      );
      await journey.click('add partner', page.getByRole('button', { name: w.recipients.addPartner, exact: true }));
      await page.getByText('株式会社取引先（取引先）', exact).waitFor();
      await journey.fill('guest name', page.getByLabel(w.recipients.guestName, exact), guest.name);
      await journey.fill('guest e-mail', page.getByLabel(w.recipients.guestEmail, exact), guest.email);
      await journey.click('add guest', page.getByRole('button', { name: w.recipients.addGuest, exact: true }));
      await page.getByText(`${guest.name}（${guest.email}）`, exact).waitFor();
      await captureScreens(page, 'send-wizard-recipients', { allow: [guest.name] });
      await journey.click('next', page.getByRole('button', { name: w.next, exact: true }));
      await journey.on(wizardStep('fields'));

      // The partner joined the workspace as not public.
      const participant = await app.service.deps
        .knex('workspace_participants')
        .where({ partner_organization_id: partner.organizationId })
        .first();
      expect(participant?.is_public).toBe(false);

      // ③ 署名欄: the first signer (the partner) is chosen; a signature box for it, dragged; then the guest's.
      await page.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
      const addSignature = page.getByRole('button', {
        name: w.fields.add.replace('{{kind}}', w.fields.kinds.signature),
        exact: true,
      });
      await journey.click('partner signature box', addSignature);
      const partnerBox = page.locator('.sign-sheet .placement-box');
      await partnerBox.waitFor();
      await journey.drag('partner box', partnerBox, 0, 40);
      await journey.check('guest signer', page.getByRole('radio', { name: guest.name }));
      await journey.click('guest signature box', addSignature);
      await expect
        .poll(() => page.locator('.sign-sheet .placement-box, .sign-sheet .wizard-box-other').count())
        .toBe(2);
      await captureScreens(page, 'send-wizard-fields', { allow: [guest.name] });
      await journey.click('next', page.getByRole('button', { name: w.next, exact: true }));
      await journey.on(wizardStep('review'));

      // The plan is stored with every task waiting, each signer with one signature field; nothing mailed yet.
      const tasks = await app.service.deps.knex('tasks').where({ document_id: documentId }).orderBy('task_order');
      expect(tasks.map((t) => [t.task_order, t.type, t.status])).toEqual([
        [1, 'approve', 'waiting'],
        [2, 'sign', 'waiting'],
        [3, 'sign', 'waiting'],
      ]);
      const fields = await app.service.deps.knex('task_fields').whereIn(
        'task_id',
        tasks.map((t) => t.id),
      );
      expect(fields.map((f) => f.kind)).toEqual(['signature', 'signature']);
      const dragged = fields.find((f) => f.task_id === tasks[1].id);
      // A new box's top starts at 62 % of the page's height (A4: y2 = 841.89 × 0.38 ≈ 320 pt); the partner's was
      // dragged 40 px down, so it sits lower on the page, and it keeps its size.
      expect(dragged.y2).toBeLessThan(841.89 * 0.38 - 10);
      expect(dragged.x2 - dragged.x1).toBeCloseTo(150, 0);
      expect(await mailsToParties()).toEqual(mailedBefore);

      // ④ 確認: each recipient with what they do and when; the mail preview renders the template.
      await page.getByText(w.review.whenFirst, exact).waitFor();
      const firstPreview = page.locator('.wizard-mail-preview').first();
      await firstPreview.locator('summary').click();
      await firstPreview.locator('.wizard-mail-body').waitFor();
      expect(await firstPreview.locator('.wizard-mail-body').textContent()).toContain('業務委託契約書');
      await captureScreens(page, 'send-wizard-review', { allow: [guest.name] });
      await journey.click('send', page.getByRole('button', { name: w.send, exact: true }));
      await journey.on((url) => url.searchParams.get('sent') === businessFlowId);
      await heading(page, w.sent.title);
      await captureScreens(page, 'send-wizard-sent');

      const screens = journey.distinctScreens();
      console.log(
        `send wizard journey: ${journey.clicks} clicks, ${journey.fills} fills, ${screens.length} screens\n  ` +
          `${journey.log.join('\n  ')}\n  screens: ${screens.join(' → ')}`,
      );
      // Opening the review's mail preview is not counted: the test reads it, sending does not need it.
      expect(journey.clicks).toBeLessThanOrEqual(25);
      expect(screens.length).toBeLessThanOrEqual(6);
      expect((await app.service.deps.knex('business_flows').where({ id: businessFlowId }).first()).status).toBe(
        'in_progress',
      );

      // 1. The owner approves from the task mail's link (the document page open at the task).
      const approveLink = await mailedLink(app, owner.email, `/organizations/documents/${documentId}`);
      await page.goto(approveLink.path);
      await page.getByRole('button', { name: documentsJa.actions.approve, exact: true }).click();
      await toast(page, documentsJa.actions.approved).waitFor({ timeout: 30_000 });

      // 2. The partner's user signs from their mail: the signing screen, the field filled by a handwritten signature.
      const signLink = await mailedLink(app, partner.email, `/organizations/documents/${documentId}/tasks/`, 30_000);
      expect(signLink.url.pathname).toBe(`/organizations/documents/${documentId}/tasks/${tasks[1].id}/sign`);
      const guestLinksBefore = await guestLinkCount(guest.email);
      const partnerPage = await browser.openSignedIn({ app, language: 'ja', session: partnerPair });
      await partnerPage.goto(signLink.path);
      await heading(partnerPage, signingJa.sign.title);
      await fillSignatureField(partnerPage, 'ja');
      await partnerPage.getByRole('button', { name: signingJa.form.submit, exact: true }).click();
      await partnerPage.getByRole('heading', { name: signingJa.done.title, exact: true }).waitFor({ timeout: 120_000 });
      const afterPartner = pdfsig(
        await app.service.deps.files.read(
          (
            await app.service.deps
              .knex('document_versions')
              .where({ document_id: documentId })
              .orderBy('version', 'desc')
              .first()
          ).sha256,
        ),
      );
      expect(afterPartner.validations, afterPartner.output).toEqual(['Signature is Valid.']);

      // 3. The guest signs from the task mail's link (English): the address code, the terms, the field.
      const guestLink = await newestGuestLink(guest.email, guestLinksBefore);
      const guestPage = await browser.open({ app, language: 'en' });
      await guestPage.goto(guestLink.path);
      await heading(guestPage, oneTimeEn.auth.title);
      const code = await codeAfter(guest.email, () =>
        guestPage.getByRole('button', { name: oneTimeEn.auth.send, exact: true }).click(),
      );
      await guestPage.getByLabel(oneTimeEn.auth.code, exact).fill(code);
      await guestPage.getByRole('button', { name: oneTimeEn.auth.submit, exact: true }).click();
      await heading(guestPage, oneTimeEn.terms.title);
      await guestPage.getByLabel(TEXTS.en.auth.terms.agree, exact).check();
      await guestPage.getByRole('button', { name: oneTimeEn.terms.submit, exact: true }).click();
      await landedOn(guestPage, /^\/onetime\/business-flows\//);
      await fillSignatureField(guestPage, 'en');
      await guestPage.getByRole('button', { name: signingEn.form.submit, exact: true }).click();
      await toast(guestPage, oneTimeEn.actions.signed).waitFor({ timeout: 120_000 });

      // The flow is complete; pdfsig validates both signatures of the final PDF.
      const { knex, files } = app.service.deps;
      await expect
        .poll(async () => (await knex('business_flows').where({ id: businessFlowId }).first()).status, {
          timeout: 30_000,
        })
        .toBe('complete');
      const version = await knex('document_versions')
        .where({ document_id: documentId })
        .orderBy('version', 'desc')
        .first();
      const final = pdfsig(await files.read(version.sha256));
      expect(final.validations, final.output).toEqual(['Signature is Valid.', 'Signature is Valid.']);

      // The completion certificate names the owner organization, both signers and the approver.
      const response = await fetch(`${app.url}/core/v1/documents/${documentId}/completion-certificate`, {
        headers: { authorization: `Bearer ${ownerPair.authorizationToken}` },
      });
      expect(response.status).toBe(200);
      const certificate = new Uint8Array(await response.arrayBuffer());
      const text = pdfText(certificate);
      for (const name of ['株式会社発注元', '株式会社取引先', '佐藤 花子', guest.name])
        expect(text, text).toContain(name);
      expect(text, text).toContain('Signers（2）');
      expect(text, text).toContain('Approvers and readers（1）');
      expect(text, text).toContain('承認 / Approved');
      const signedCertificate = pdfsig(certificate);
      expect(signedCertificate.validations, signedCertificate.output).toEqual(['Signature is Valid.']);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'keeps a draft without mailing anyone, lists it on the home screen, reopens it with ?draft= and discards it after a confirmation (en)',
    async () => {
      const owner = await signUpOrganization(app, {
        organizationName: 'Draft Trading',
        userName: 'Jane Smith',
        locale: 'en',
      });
      const pair = await signIn(app, owner.loginId, owner.password);
      const guestEmail = `draft-guest-${Math.random().toString(36).slice(2)}@example.com`;
      const w = W.en;
      const page = await browser.openSignedIn({ app, language: 'en', session: pair, path: '/' });
      await heading(page, TEXTS.en.auth.home.title);
      const outboxBefore = (await readOutbox(app)).length;

      await page.getByRole('link', { name: HOME.en.newSend, exact: true }).click();
      await heading(page, w.title);
      await page
        .getByLabel(w.documents.choose, exact)
        .setInputFiles([{ name: 'NDA.pdf', mimeType: 'application/pdf', buffer: await buildPdf() }]);
      await page.getByLabel(w.documents.title, exact).fill('Mutual NDA');
      await captureScreens(page, 'send-wizard-documents');
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await page.waitForURL(wizardStep('recipients'));
      const draftId = draftIdOf(page);
      await scanFlowDocuments(draftId);

      // A guest invited into a draft gets no invitation mail yet.
      await page.getByRole('button', { name: w.recipients.addGroup, exact: true }).click();
      await page.getByLabel(w.recipients.guestName, exact).fill('John Roe');
      await page.getByLabel(w.recipients.guestEmail, exact).fill(guestEmail);
      await page.getByRole('button', { name: w.recipients.addGuest, exact: true }).click();
      await page.getByText(`John Roe (${guestEmail})`, exact).waitFor();
      // A corporate number that is not 13 digits is refused before asking the API.
      await page.getByLabel(w.recipients.corporateNumber, exact).fill('123');
      await page.getByRole('button', { name: w.recipients.addPartner, exact: true }).click();
      await page.getByText(w.recipients.corporateNumberInvalid, exact).waitFor();
      await page.getByLabel(w.recipients.corporateNumber, exact).fill('');
      await captureScreens(page, 'send-wizard-recipients');
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await page.waitForURL(wizardStep('fields'));
      await page.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
      await page
        .getByRole('button', { name: w.fields.add.replace('{{kind}}', w.fields.kinds.seal), exact: true })
        .click();
      await page.locator('.sign-sheet .placement-box').waitFor();
      await captureScreens(page, 'send-wizard-fields');
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await page.waitForURL(wizardStep('review'));
      await page.getByText(w.review.notice, exact).waitFor();
      await captureScreens(page, 'send-wizard-review');

      // Saved and left: nothing was mailed, and the home screen lists the draft.
      await page.getByRole('link', { name: w.saveAndLeave, exact: true }).click();
      await heading(page, TEXTS.en.auth.home.title);
      expect((await readOutbox(app)).length).toBe(outboxBefore);
      const draftLink = page.getByRole('link', { name: 'Mutual NDA', exact: true });
      await draftLink.waitFor();
      const listed = await app.api.call('listBusinessFlows', {
        token: pair.authorizationToken,
        query: { 'filter[status]': 'draft' },
      });
      expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([draftId]);

      // Reopened from the home screen: the recipients and the field come back from the stored plan.
      await draftLink.click();
      await page.waitForURL((url) => url.searchParams.get('draft') === draftId);
      await page.getByText(`John Roe (${guestEmail})`, exact).waitFor();
      await page.getByRole('button', { name: w.steps.fields, exact: true }).click();
      await page.locator('.sign-sheet .placement-box').waitFor({ timeout: 60_000 });

      // Discard asks first; cancelling keeps the draft, confirming deletes it.
      await page.getByRole('button', { name: w.discard, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: w.discardConfirm.title });
      await dialog.waitFor();
      await captureScreens(page, 'send-wizard-discard');
      await dialog.getByRole('button', { name: w.discardConfirm.confirm, exact: true }).click();
      await heading(page, TEXTS.en.auth.home.title);
      expect(await app.service.deps.knex('business_flows').where({ id: draftId }).first()).toBeUndefined();
      expect((await readOutbox(app)).length).toBe(outboxBefore);

      // The screen after 送信 in English (its links only need the flow's id).
      const { businessFlowId } = await seedSentFlow(pair.authorizationToken);
      await page.goto(`/organizations/business-flows/new?sent=${businessFlowId}`);
      await heading(page, w.sent.title);
      await captureScreens(page, 'send-wizard-sent');
      await page.getByRole('link', { name: w.sent.openFlow, exact: true }).click();
      await landedOn(page, `/business-flows/${businessFlowId}`);
    },
    JOURNEY_TIMEOUT,
  );
  it(
    'cancels the invitation of a guest taken off the recipients before sending, so only the remaining guest is mailed',
    async () => {
      const owner = await signUpOrganization(app, { organizationName: 'Guest Trading', locale: 'en' });
      const pair = await signIn(app, owner.loginId, owner.password);
      const stays = `stays-${Math.random().toString(36).slice(2)}@example.com`;
      const leaves = `leaves-${Math.random().toString(36).slice(2)}@example.com`;
      const w = W.en;
      const page = await browser.openSignedIn({
        app,
        language: 'en',
        session: pair,
        path: '/organizations/business-flows/new',
      });
      await heading(page, w.title);
      await page
        .getByLabel(w.documents.choose, exact)
        .setInputFiles([{ name: 'Order.pdf', mimeType: 'application/pdf', buffer: await buildPdf() }]);
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await page.waitForURL(wizardStep('recipients'));
      const flowId = draftIdOf(page);
      await scanFlowDocuments(flowId);
      await page.getByRole('button', { name: w.recipients.addGroup, exact: true }).click();
      for (const [name, email] of [
        ['Stays Here', stays],
        ['Leaves Soon', leaves],
      ] as const) {
        await page.getByLabel(w.recipients.guestName, exact).fill(name);
        await page.getByLabel(w.recipients.guestEmail, exact).fill(email);
        await page.getByRole('button', { name: w.recipients.addGuest, exact: true }).click();
        await page.getByText(`${name} (${email})`, exact).waitFor();
      }
      const removeLabel = w.recipients.removeLabel.replace('{{name}}', `Leaves Soon (${leaves})`);
      await page.getByRole('button', { name: removeLabel, exact: true }).click();
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await page.waitForURL(wizardStep('fields'));
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await page.waitForURL(wizardStep('review'));
      await page.getByRole('button', { name: w.send, exact: true }).click();
      await heading(page, w.sent.title);

      await waitForMail(app, (m) => recipientOf(m).includes(stays));
      const invitations = await app.service.deps
        .knex('one_time_invitations as i')
        .join('one_time_users as u', 'u.id', 'i.one_time_user_id')
        .where('i.business_flow_id', flowId)
        .select('u.email', 'i.status');
      expect(invitations.find((i) => i.email === leaves)?.status).toBe('cancelled');
      expect(invitations.find((i) => i.email === stays)?.status).not.toBe('cancelled');
      expect((await readOutbox(app)).filter((m) => recipientOf(m).includes(leaves))).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
