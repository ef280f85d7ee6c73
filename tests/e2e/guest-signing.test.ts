// Callbacks passed to page.evaluate run in the browser: they see the DOM.
/*
 * The guest's side of one-time invitations in chromium against the real service: a person with only an e-mail
 * address (no account) signs, approves, reads and remands on /onetime/business-flows/{id}, having proved the address
 * with the 6-digit code, by the mail link, by the QR code on a 360 px phone, or by the 16-character access code.
 * The owner's side (inviting, planning, approving, the QR code) goes through the API here: this file is about the
 * guest's screens. Every guest screen is saved in ja and en at 1280 and 360 px (test-results/screenshots/guest-*).
 */
import { readFile } from 'node:fs/promises';
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashOpaqueToken } from '../../core/auth/tokens.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import oneTimeEn from '../../web/src/features/one-time/i18n/en.json' with { type: 'json' };
import oneTimeJa from '../../web/src/features/one-time/i18n/ja.json' with { type: 'json' };
import signingEn from '../../web/src/i18n/en/signing.json' with { type: 'json' };
import signingJa from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
  DESKTOP,
  exact,
  heading,
  landedOn,
  type Language,
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
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';
import { guestTask, inviteGuest } from '../helpers/one-time-guests.ts';
import { pdfsig, signatureDictionaries } from '../helpers/signing.ts';
import { groupTask, plan, step } from '../helpers/tasks.ts';

const app = useApp({ plugins: BUILT_IN_PLUGINS.filter((plugin) => !/scan/.test(plugin.name)) });
const browser = useBrowser();
const T = {
  ja: { oneTime: oneTimeJa, signing: signingJa, auth: TEXTS.ja.auth },
  en: { oneTime: oneTimeEn, signing: signingEn, auth: TEXTS.en.auth },
};

/** Slow steps (PDF rendering, a PAdES signature with its timestamp) on a two-core machine. */
const JOURNEY_TIMEOUT = 240_000;

/** The owner (signed up, API token), a flow in a workspace of their first group, and one scanned PDF in it. */
async function ownerWithDocument(documentName = '業務委託契約書') {
  const { org, token, page } = await browser.openAsOwner({ app });
  await page.close();
  const groupId = await firstGroupId(app, org.organizationId);
  const { businessFlowId } = await seedBusinessFlow(app, {
    organizationId: org.organizationId,
    groupId,
    createdBy: org.ownerId,
    name: '業務委託 2026',
  });
  const documentId = await addDocument(token, businessFlowId, documentName);
  return { org, token, groupId, businessFlowId, documentId };
}

async function addDocument(token: string, businessFlowId: string, name: string) {
  const uploaded = await uploadPdf(app, token, businessFlowId, { name });
  await markScanned(app, uploaded.id);
  return uploaded.id as string;
}

const guestEmail = () => `guest-${Math.random().toString(36).slice(2)}@example.com`;
const linkOf = (mail: ParsedMail) => /https?:\/\/\S+\/onetime\/auth\?token=\S+/.exec(mail.text ?? '')?.[0] ?? null;
const newest = (mails: ParsedMail[]) => mails.sort((a, b) => (b.date?.getTime() ?? 0) - (a.date?.getTime() ?? 0))[0];

/** Mails to `email` whose subject matches `pattern`, so far. */
async function mailsTo(email: string, pattern: RegExp) {
  return (await readOutbox(app)).filter((m) => recipientOf(m).includes(email) && pattern.test(m.subject ?? ''));
}

/** Runs `action`, then waits for one more mail to `email` matching `pattern` and returns its 6-digit code. */
async function codeMailedAfter(email: string, pattern: RegExp, action: () => Promise<unknown>): Promise<string> {
  const before = (await mailsTo(email, pattern)).length;
  await action();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = await mailsTo(email, pattern);
    if (mails.length > before) return /(?<![\w-])(\d{6})(?![\w-])/.exec(newest(mails)!.text ?? '')![1]!;
    if (Date.now() > deadline) throw new Error(`no new code mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The address code mail (one-time-auth-code) and the signing code mail, told apart by their subject. */
const AUTH_CODE_MAIL = /認証コードのお知らせ|verification code/;
const SIGNING_CODE_MAIL = /署名の認証コード|signing code/;

const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token') ?? '');

/**
 * The mail to `email` whose personal link is the invitation's live one (each invitation or task mail replaces the
 * link before it; mails of the same second cannot be ordered by date, so the link is matched to the stored hash).
 */
async function liveLink(email: string, invitationId: string) {
  const { knex } = app.service.deps;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const row = await knex('one_time_invitations').where({ id: invitationId }).first('link_token_hash');
    const mails = (await readOutbox(app)).filter((m) => recipientOf(m).includes(email) && linkOf(m));
    const mail = mails.find((m) => hashOpaqueToken(tokenOf(linkOf(m)!)) === row?.link_token_hash);
    if (mail) {
      const url = new URL(linkOf(mail)!);
      return { mail, path: `${url.pathname}${url.search}` };
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${email} carries the live link`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Saves the page at 1280 and at 360 px; at 360 the page must not scroll sideways. */
async function shots(page: Page, name: string, language: Language) {
  const original = page.viewportSize() ?? DESKTOP;
  for (const viewport of [DESKTOP, MOBILE] as Viewport[]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 150))));
    if (viewport.width === MOBILE.width) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
    }
    await screenshot(page, `guest-${name}-${language}-${viewport.width}`);
  }
  await page.setViewportSize(original);
}

/** Draws a zigzag on the handwriting pad with the mouse (pointer events, as a finger would) and places it. */
async function drawSignature(page: Page, language: Language) {
  const s = T[language].signing;
  await page.getByRole('button', { name: s.placements.addHandwritten, exact: true }).click();
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
  await page.locator('.sign-sheet [data-placement="handwritten"]').waitFor();
}

/** From the auth page with the code sent: the code from the mail, then the terms. Lands on the flow. */
async function proveAndAccept(page: Page, email: string, language: Language, send: () => Promise<unknown>) {
  const t = T[language];
  const code = await codeMailedAfter(email, AUTH_CODE_MAIL, send);
  await heading(page, t.oneTime.auth.codeTitle);
  const input = page.getByLabel(t.oneTime.auth.code, exact);
  expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
  expect(await input.getAttribute('inputmode')).toBe('numeric');
  await shots(page, 'auth-code', language);
  await input.fill(code);
  await page.getByRole('button', { name: t.oneTime.auth.submit, exact: true }).click();

  await heading(page, t.oneTime.terms.title);
  await page.locator('.terms-box').waitFor();
  await shots(page, 'terms', language);
  // Without the consent the page says so and stays.
  await page.getByRole('button', { name: t.oneTime.terms.submit, exact: true }).click();
  await page.getByText(t.oneTime.terms.agreeRequired, exact).waitFor();
  await page.getByLabel(t.auth.terms.agree, exact).check();
  await page.getByRole('button', { name: t.oneTime.terms.submit, exact: true }).click();
  await landedOn(page, /^\/onetime\/business-flows\//);
}

/** Signs the opened document's sign task: a handwritten signature, the e-mail code, sign. */
async function signWithHandwritingAndCode(page: Page, email: string, language: Language) {
  const s = T[language].signing;
  await page.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
  await drawSignature(page, language);
  const code = await codeMailedAfter(email, SIGNING_CODE_MAIL, () =>
    page.getByRole('button', { name: s.code.send, exact: true }).click(),
  );
  const codeInput = page.getByLabel(s.code.label, exact);
  expect(await codeInput.getAttribute('autocomplete')).toBe('one-time-code');
  await codeInput.fill(code);
  await page.getByRole('button', { name: s.form.submit, exact: true }).click();
  await toast(page, T[language].oneTime.actions.signed).waitFor({ timeout: 120_000 });
}

/** The final PDF: pdfsig says every signature is valid, and the signature names the guest (its /Name and /Reason). */
async function expectSignedByGuest(documentId: string, guestName: string, bytes?: Buffer) {
  const { knex, files } = app.service.deps;
  const version = await knex('document_versions').where({ document_id: documentId }).orderBy('version', 'desc').first();
  const pdf = bytes ?? (await files.read(version.sha256));
  const checked = pdfsig(pdf);
  expect(checked.validations, checked.output).toEqual(['Signature is Valid.']);
  // qpdf, not our code, reads whom the signature names.
  const signatures = signatureDictionaries(pdf);
  expect(signatures.map((signature) => signature.name)).toContain(guestName);
  const [record] = await knex('sign_records').where({ document_id: documentId });
  expect(record.signer_name).toBe(guestName);
}

describe('a guest with no account', () => {
  it(
    'signs by the mail link: invitation and task mails, the 6-digit code, the terms, a handwritten signature with the e-mail code; the flow completes',
    async () => {
      const owner = await ownerWithDocument();
      const email = guestEmail();
      const name = 'Hanako Tanaka';
      const invitation = await inviteGuest(app, owner.token, owner.businessFlowId, name, email);
      // The invitation mail is in the outbox, with the personal link and the 16-character code.
      const invited = await liveLink(email, invitation.id);
      expect(invited.mail.text).toMatch(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/);

      // The owner approves first; then the guest's signature is the last task (handwritten, e-mail code).
      const tasks = await plan(app, owner.token, owner.documentId, [
        groupTask(1, 'approve', owner.groupId),
        guestTask(2, 'sign', invitation.attributes.oneTimeUserId, { signatureType: 'handwritten', twoFactor: 'email' }),
      ]);
      expect((await step(app, owner.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
      // The task mail replaced the invitation's link with a new one: the guest follows the newest mail.
      await waitForMail(app, (m) => recipientOf(m).includes(email) && /業務委託契約書/.test(m.text ?? ''), 20_000);
      const link = await liveLink(email, invitation.id);
      expect(link.mail.text).toContain('業務委託契約書');

      const page = await browser.open({ app, language: 'ja', viewport: DESKTOP });
      await page.goto(link.path);
      await heading(page, oneTimeJa.auth.title);
      await page.locator('.onetime-invited-by').filter({ hasText: '「業務委託 2026」' }).waitFor();
      await page.getByText(name, exact).waitFor();
      await shots(page, 'auth-invitation', 'ja');
      await proveAndAccept(page, email, 'ja', () =>
        page.getByRole('button', { name: oneTimeJa.auth.send, exact: true }).click(),
      );

      // The flow: the one document, open at once, with the placement board.
      await heading(page, '業務委託 2026');
      await page.getByRole('heading', { level: 2, name: '業務委託契約書', exact: true }).waitFor();
      await page.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
      await shots(page, 'flow-sign', 'ja');
      await signWithHandwritingAndCode(page, email, 'ja');

      // The owner's flow is complete, and the final PDF is valid and names the guest.
      const { knex } = app.service.deps;
      await expect
        .poll(async () => (await knex('business_flows').where({ id: owner.businessFlowId }).first()).status)
        .toBe('complete');
      await expectSignedByGuest(owner.documentId, name);

      // The guest downloads the signed PDF.
      await page.getByText(oneTimeJa.flow.completeNotice, exact).waitFor();
      await shots(page, 'flow-complete', 'ja');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: oneTimeJa.flow.downloadSigned, exact: true }).click(),
      ]);
      await expectSignedByGuest(owner.documentId, name, await readFile((await download.path())!));

      // The invitation's first link died with the task mail: it shows the invalid-link page.
      const first = new URL(linkOf(invited.mail)!);
      if (`${first.pathname}${first.search}` !== link.path) {
        await page.goto(`${first.pathname}${first.search}`);
        await page.getByRole('heading', { level: 1, name: oneTimeJa.link.invalid.heading }).waitFor();
      }
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'signs by QR code on a 360 px phone: name and e-mail, the code already sent, then the same signature; an expired QR code says "reopen it"',
    async () => {
      const owner = await ownerWithDocument('秘密保持契約書');
      const invited = await app.api.call('inviteOneTimeUser', {
        token: owner.token,
        params: { businessFlowId: owner.businessFlowId },
        body: { data: { type: 'OneTimeInvitation', attributes: { channel: 'qr' } } },
      });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      const invitationId = invited.body.data.id as string;
      await plan(app, owner.token, owner.documentId, [
        groupTask(1, 'approve', owner.groupId),
        guestTask(2, 'sign', invited.body.data.attributes.oneTimeUserId, {
          signatureType: 'handwritten',
          twoFactor: 'email',
        }),
      ]);
      const approved = await app.service.deps.knex('tasks').where({ document_id: owner.documentId, task_order: 1 });
      expect((await step(app, owner.token, 'approveTask', approved[0].id)).status).toBe(200);
      const openQr = async () => {
        const opened = await app.api.call('openOneTimeQrCode', { token: owner.token, params: { invitationId } });
        expect(opened.status, JSON.stringify(opened.body)).toBe(201);
        const url = new URL(opened.body.data.attributes.url as string);
        return url.pathname;
      };

      // A QR code past its 10 minutes: its own page, asking to reopen it.
      const expiredPath = await openQr();
      await app.service.deps
        .knex('one_time_invitations')
        .where({ id: invitationId })
        .update({ qr_expires_at: new Date(Date.now() - 1000) });
      const phone = await browser.open({ app, language: 'ja', viewport: MOBILE });
      await phone.goto(expiredPath);
      await phone.getByRole('heading', { level: 1, name: oneTimeJa.qr.expired.heading }).waitFor();
      await shots(phone, 'qr-expired', 'ja');
      const english = await browser.open({ app, language: 'en', viewport: MOBILE });
      await english.goto(expiredPath);
      await english.getByRole('heading', { level: 1, name: oneTimeEn.qr.expired.heading }).waitFor();
      await shots(english, 'qr-expired', 'en');

      // The member reopens it; the phone scans the new one (the page in English first, for its screenshots).
      const qrPath = await openQr();
      await english.goto(qrPath);
      await heading(english, oneTimeEn.qr.title);
      await english.getByRole('button', { name: oneTimeEn.qr.submit, exact: true }).click();
      await english.getByText(oneTimeEn.qr.nameRequired, exact).waitFor();
      await shots(english, 'qr', 'en');
      await english.close();

      await phone.goto(qrPath);
      await heading(phone, oneTimeJa.qr.title);
      await shots(phone, 'qr', 'ja');
      const email = guestEmail();
      const name = 'Taro Suzuki';
      await phone.getByLabel(oneTimeJa.qr.name, exact).fill(name);
      await phone.getByLabel(oneTimeJa.qr.email, exact).fill(email);
      await proveAndAccept(phone, email, 'ja', () =>
        phone.getByRole('button', { name: oneTimeJa.qr.submit, exact: true }).click(),
      );
      await heading(phone, '業務委託 2026');
      await phone.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await signWithHandwritingAndCode(phone, email, 'ja');
      await expect
        .poll(
          async () =>
            (await app.service.deps.knex('business_flows').where({ id: owner.businessFlowId }).first()).status,
        )
        .toBe('complete');
      await expectSignedByGuest(owner.documentId, name);
      await screenshot(phone, 'guest-qr-signed-ja-360');

      // The QR code is used up once claimed.
      await phone.goto(qrPath);
      await phone.getByRole('heading', { level: 1, name: oneTimeJa.link.invalid.heading }).waitFor();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'starts with the 16-character access code (typed in lower case without hyphens), approves one document and remands another with a reason, in English',
    async () => {
      const owner = await ownerWithDocument('Purchase order');
      const secondId = await addDocument(owner.token, owner.businessFlowId, 'Invoice');
      const email = guestEmail();
      const invitation = await inviteGuest(app, owner.token, owner.businessFlowId, 'Jane Doe', email);
      const guestId = invitation.attributes.oneTimeUserId;
      for (const documentId of [owner.documentId, secondId]) {
        const tasks = await plan(app, owner.token, documentId, [
          groupTask(1, 'approve', owner.groupId),
          guestTask(2, documentId === secondId ? 'read' : 'approve', guestId),
        ]);
        expect((await step(app, owner.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
      }
      await waitForMail(app, (m) => recipientOf(m).includes(email) && /Invoice/.test(m.text ?? ''), 20_000);
      const link = await liveLink(email, invitation.id);
      const accessCode = /([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/.exec(link.mail.text ?? '')![1]!;

      const page = await browser.open({ app, language: 'en', viewport: DESKTOP });
      await page.goto('/onetime/auth');
      await heading(page, oneTimeEn.auth.accessCodeTitle);
      const field = page.getByLabel(oneTimeEn.auth.accessCode, exact);
      await field.fill('abcd');
      await page.getByRole('button', { name: oneTimeEn.auth.next, exact: true }).click();
      await page.getByText(oneTimeEn.auth.accessCodeRequired, exact).waitFor();
      await shots(page, 'auth-access-code', 'en');
      await field.fill(accessCode.toLowerCase().replace(/-/g, ''));
      expect(await field.inputValue()).toBe(accessCode);
      await page.getByRole('button', { name: oneTimeEn.auth.next, exact: true }).click();
      await heading(page, oneTimeEn.auth.title);
      await page.getByText('Jane Doe', exact).waitFor();
      await shots(page, 'auth-invitation', 'en');
      await proveAndAccept(page, email, 'en', () =>
        page.getByRole('button', { name: oneTimeEn.auth.send, exact: true }).click(),
      );

      await heading(page, '業務委託 2026');
      await shots(page, 'flow-list', 'en');
      const order = page.getByRole('region', { name: 'Purchase order', exact: true });
      await order.getByRole('button', { name: oneTimeEn.flow.open, exact: true }).click();
      await order.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
      await shots(page, 'flow-approve', 'en');
      await order.getByRole('button', { name: oneTimeEn.actions.approve, exact: true }).click();
      await toast(page, oneTimeEn.actions.approved).waitFor();

      const invoice = page.getByRole('region', { name: 'Invoice', exact: true });
      await invoice.getByRole('button', { name: oneTimeEn.flow.open, exact: true }).click();
      await invoice.getByRole('button', { name: oneTimeEn.actions.remand, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: oneTimeEn.actions.remandTitle });
      await dialog.getByRole('button', { name: oneTimeEn.actions.remand, exact: true }).click();
      await dialog.getByText(oneTimeEn.actions.reasonRequired, exact).waitFor();
      await shots(page, 'remand', 'en');
      await dialog.getByLabel(oneTimeEn.actions.remandReason, exact).fill('The amount is wrong.');
      await dialog.getByRole('button', { name: oneTimeEn.actions.remand, exact: true }).click();
      await toast(page, oneTimeEn.actions.remanded).waitFor();

      const { knex } = app.service.deps;
      const statuses = await knex('documents').whereIn('id', [owner.documentId, secondId]).orderBy('name');
      expect(statuses.map((d: { name: string; status: string }) => [d.name, d.status])).toEqual([
        ['Invoice', 'remanded'],
        ['Purchase order', 'completed'],
      ]);

      // Sign-out ends the guest session in this tab.
      await page.getByRole('button', { name: oneTimeEn.guest.signOut, exact: true }).click();
      await landedOn(page, '/onetime/auth');
      await heading(page, oneTimeEn.auth.accessCodeTitle);
      await page.getByText(oneTimeEn.guest.signedOut, exact).waitFor();
      expect(await page.evaluate(() => window.sessionStorage.getItem('keiyaku.onetime.tokens'))).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "opens a cancelled invitation's old link on the invalid-link page, in ja and en",
    async () => {
      const owner = await ownerWithDocument();
      const email = guestEmail();
      const invitation = await inviteGuest(app, owner.token, owner.businessFlowId, '山田 花子', email);
      const link = await liveLink(email, invitation.id);
      const current = await app.api.call('listOneTimeInvitations', {
        token: owner.token,
        params: { businessFlowId: owner.businessFlowId },
      });
      const lockVersion = current.body.data.find((i: { id: string }) => i.id === invitation.id).attributes.lockVersion;
      const cancelled = await app.api.call('cancelOneTimeInvitation', {
        token: owner.token,
        params: { invitationId: invitation.id },
        body: { data: { type: 'OneTimeInvitation', attributes: { lockVersion } } },
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

      for (const language of ['ja', 'en'] as const) {
        const page = await browser.open({ app, language });
        await page.goto(link.path);
        await page.getByRole('heading', { level: 1, name: T[language].oneTime.link.cancelled.heading }).waitFor();
        expect(await page.getByRole('link', { name: TEXTS[language].common.fallback.backHome }).count()).toBe(0);
        await shots(page, 'link-cancelled', language);
        // A link that never existed, and the flow without a session.
        await page.goto('/onetime/auth?token=no-such-token');
        await page.getByRole('heading', { level: 1, name: T[language].oneTime.link.invalid.heading }).waitFor();
        await shots(page, 'link-invalid', language);
        await page.goto(`/onetime/business-flows/${owner.businessFlowId}`);
        await page.getByRole('heading', { level: 1, name: T[language].oneTime.link.session.heading }).waitFor();
        await shots(page, 'session-needed', language);
        // Its way on: the access code page.
        await page.getByRole('link', { name: T[language].oneTime.link.session.action }).click();
        await heading(page, T[language].oneTime.auth.accessCodeTitle);
        await shots(page, 'auth-access-code-empty', language);
      }
    },
    JOURNEY_TIMEOUT,
  );
});
