// Callbacks passed to page.evaluate run in the browser: they see the DOM.
/*
 * The signer's side of sender-placed fields, in chromium against the real service and its signing engine: the sender
 * (over the API) plans a member's sign task and then a guest's, each with a required signature field and a text
 * field and no placements of the signer's own. The member opens the signing screen, sees the fields, cannot sign
 * before the required one is filled, fills both (a registered seal, text) and signs; then the guest does the same on
 * the guest panel (a handwritten signature, text). pdfsig validates the result, and each appearance sits at its
 * field's rectangle. Also a draft's flow page: 下書き, 「編集を続ける」 into the wizard, 「破棄」 with a confirmation.
 */
import { execFileSync } from 'node:child_process';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import flowsEn from '../../web/src/features/business-flows/i18n/en.json' with { type: 'json' };
import flowsJa from '../../web/src/features/business-flows/i18n/ja.json' with { type: 'json' };
import oneTimeEn from '../../web/src/features/one-time/i18n/en.json' with { type: 'json' };
import signingEn from '../../web/src/i18n/en/signing.json' with { type: 'json' };
import signingJa from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  landedOn,
  type Language,
  type SessionTokens,
  toast,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';
import { createFlow, seedBusinessFlow } from '../helpers/business-flows.ts';
import { callMultipart, markScanned, uploadPdf } from '../helpers/documents.ts';
import { guestTask, inviteGuest, mailedLinkTokens, newestLinkToken } from '../helpers/one-time-guests.ts';
import { acceptTerms, requestCode, signInGuestCall } from '../helpers/one-time.ts';
import { captureScreens } from '../helpers/screens.ts';
import { confirmEmailOf, latestPdf, pdfsig, sealPng, tempFile } from '../helpers/signing.ts';

const app = useApp({ plugins: BUILT_IN_PLUGINS.filter((plugin) => !/scan/.test(plugin.name)) });
const browser = useBrowser();
const S = { ja: signingJa, en: signingEn };

/** Slow steps (PDF rendering, two PAdES signatures with their timestamps) on a two-core machine. */
const JOURNEY_TIMEOUT = 300_000;

interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The fields of each signer on the A4 page (595.28 × 841.89 pt): a signature box and a text box. */
const MEMBER_SIGNATURE: Rect = { x1: 60, y1: 120, x2: 210, y2: 180 };
const MEMBER_TEXT: Rect = { x1: 60, y1: 60, x2: 200, y2: 108 };
const GUEST_SIGNATURE: Rect = { x1: 360, y1: 120, x2: 510, y2: 180 };
const GUEST_TEXT: Rect = { x1: 360, y1: 60, x2: 500, y2: 108 };

const fieldsOf = (who: string, signature: Rect, text: Rect) => [
  { kind: 'signature', page: 1, rect: signature, required: true, label: `${who} 署名` },
  { kind: 'text', page: 1, rect: text, required: false, label: `${who} 氏名` },
];

/**
 * The owner (signed in, e-mail confirmed, a seal image registered), a flow with one scanned PDF and a guest invited
 * to it; the plan: 1. the owner's group signs, 2. the guest signs, each into its two fields only.
 */
async function flowWithFields() {
  const { org, pair, token, page } = await browser.openAsOwner({ app });
  await page.close();
  await confirmEmailOf(app, org.ownerId);
  const groupId = await firstGroupId(app, org.organizationId);
  const { businessFlowId } = await seedBusinessFlow(app, {
    organizationId: org.organizationId,
    groupId,
    createdBy: org.ownerId,
    name: '業務委託 2026',
  });
  const uploaded = await uploadPdf(app, token, businessFlowId, { name: '業務委託契約書' });
  const documentId = uploaded.id as string;
  await markScanned(app, documentId);

  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(sealPng(120))]), 'hanko.png');
  form.set('name', '山田の印');
  const seal = await callMultipart(app, 'createMySealImage', { token, form });
  expect(seal.status, JSON.stringify(seal.body)).toBe(201);

  const guestEmail = `signer-fields-${Math.random().toString(36).slice(2)}@example.com`;
  const guestName = 'Hanako Tanaka';
  const invitation = await inviteGuest(app, token, businessFlowId, guestName, guestEmail);
  // The invitation mail's link: the guest's task mail replaces it with the live one once the member has signed.
  await newestLinkToken(app, guestEmail);
  const mailedLinks = await mailedLinkTokens(app, guestEmail);

  const lockVersion = (await app.api.call('getDocument', { token, params: { documentId } })).body.data.attributes
    .lockVersion;
  const planned = await app.api.call('replaceDocumentTasks', {
    token,
    params: { documentId },
    body: {
      data: {
        type: 'DocumentTasks',
        attributes: {
          lockVersion,
          tasks: [
            {
              order: 1,
              type: 'sign',
              assignee: { kind: 'group', groupId },
              required: true,
              signatureType: 'operator',
              twoFactor: 'none',
              fields: fieldsOf('甲', MEMBER_SIGNATURE, MEMBER_TEXT),
              allowSignerPlacements: false,
            },
            guestTask(2, 'sign', invitation.attributes.oneTimeUserId, {
              signatureType: 'operator',
              twoFactor: 'none',
              fields: fieldsOf('乙', GUEST_SIGNATURE, GUEST_TEXT),
              allowSignerPlacements: false,
            }),
          ],
        },
      },
    },
  });
  expect(planned.status, JSON.stringify(planned.body)).toBe(200);
  const [memberTask, guestTaskRow] = planned.body.data as {
    id: string;
    attributes: { fields: { id: string; kind: string }[] };
  }[];
  const fieldIds = (task: typeof memberTask) => ({
    signature: task!.attributes.fields.find((f) => f.kind === 'signature')!.id,
    text: task!.attributes.fields.find((f) => f.kind === 'text')!.id,
  });
  return {
    org,
    pair,
    token,
    businessFlowId,
    documentId,
    sealImageId: seal.body.data.id as string,
    guest: { email: guestEmail, name: guestName, mailedLinks },
    member: { taskId: memberTask!.id, fields: fieldIds(memberTask) },
    guestSide: { taskId: guestTaskRow!.id, fields: fieldIds(guestTaskRow) },
  };
}

/** The annotation rectangles of the PDF's pages as qpdf reads them (stamps and signature widgets). */
function annotationRects(pdf: Uint8Array): number[][] {
  const json = execFileSync('qpdf', ['--json=2', '--json-key=qpdf', tempFile('annotations.pdf', pdf)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const objects = (JSON.parse(json) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] })
    .qpdf[1];
  return Object.values(objects)
    .map((object) => object.value)
    .filter((value) => value?.['/Type'] === '/Annot' && Array.isArray(value['/Rect']))
    .map((value) => value!['/Rect'] as number[]);
}

/** True when one annotation of the PDF covers exactly the rectangle (to a hundredth of a point). */
function hasAppearanceAt(pdf: Uint8Array, rect: Rect) {
  return annotationRects(pdf).some(
    ([x1, y1, x2, y2]) =>
      Math.abs(x1! - rect.x1) < 0.01 &&
      Math.abs(y1! - rect.y1) < 0.01 &&
      Math.abs(x2! - rect.x2) < 0.01 &&
      Math.abs(y2! - rect.y2) < 0.01,
  );
}

/** The field's box on the drawn page (the button inside it fills it). */
const fieldBox = (page: Page, fieldId: string) => page.locator(`.sign-sheet [data-field="${fieldId}"]`);

async function openField(page: Page, fieldId: string) {
  await fieldBox(page, fieldId).locator('.field-box-button').click();
}

/** The page shows both fields of the signer, empty, and no tools for placements of the signer's own. */
async function expectEmptyFields(page: Page, language: Language, fields: { signature: string; text: string }) {
  const s = S[language];
  await page.locator('.sign-sheet canvas[data-rendered-page="1"]').waitFor({ timeout: 60_000 });
  for (const id of [fields.signature, fields.text]) {
    await fieldBox(page, id).waitFor();
    expect(await fieldBox(page, id).getAttribute('data-filled')).toBe('false');
  }
  await fieldBox(page, fields.signature).getByText(s.fields.required, { exact: false }).waitFor();
  await page.getByText(s.fields.ownNotAllowed, exact).waitFor();
  expect(await page.getByRole('button', { name: s.placements.addText, exact: true }).count()).toBe(0);
}

/** Fills the text field through its dialog; the sign button stays disabled while the signature field is empty. */
async function fillText(page: Page, language: Language, fieldId: string, name: string, text: string) {
  const s = S[language];
  await openField(page, fieldId);
  const dialog = page.getByRole('dialog', { name: s.fields.fillTitle.replace('{{name}}', name) });
  await dialog.getByLabel(s.placements.textLine.replace('{{line}}', '1'), exact).fill(text);
  await dialog.getByRole('button', { name: s.fields.useText, exact: true }).click();
  await expect.poll(() => fieldBox(page, fieldId).getAttribute('data-filled')).toBe('true');
  await fieldBox(page, fieldId).getByText(text, exact).waitFor();
}

/** Draws a zigzag on the handwriting pad with the mouse and places it. */
async function drawSignature(page: Page, language: Language) {
  const s = S[language];
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

type SentPlacement = { kind: string; page?: number; fieldId?: string; rect?: Rect; sealImageId?: string };

/** The sign button: disabled with the missing fields named while `missing` is not empty. */
async function expectSignButton(page: Page, language: Language, missing: string[]) {
  const s = S[language];
  const button = page.getByRole('button', { name: s.form.submit, exact: true });
  await button.scrollIntoViewIfNeeded();
  if (missing.length === 0) {
    await expect.poll(() => button.isEnabled()).toBe(true);
    expect(await page.getByText(s.fields.missingTitle, exact).count()).toBe(0);
    return;
  }
  await expect.poll(() => button.isDisabled()).toBe(true);
  const notice = page.locator('.missing-fields');
  await notice.getByText(s.fields.missingTitle, exact).waitFor();
  for (const name of missing) {
    await notice.getByText(s.fields.listItem.replace('{{name}}', name).replace('{{page}}', '1'), exact).waitFor();
  }
  expect(await button.getAttribute('aria-describedby')).toBe(await notice.getAttribute('id'));
}

/** Puts a guest session the API issued into the tab the way the guest screens keep it (sessionStorage). */
async function restoreGuestSession(page: Page, pair: SessionTokens) {
  const payload = pair.authorizationToken.split('.')[1]!;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const tokens = {
    accessToken: { accessToken: pair.authorizationToken, claims: { ...claims, uid: String(claims.uid) } },
    refreshToken: { refreshToken: pair.refreshToken },
  };
  await page.evaluate((value) => {
    window.sessionStorage.setItem('keiyaku.onetime.tokens', value);
    window.sessionStorage.setItem('keiyaku.onetime.sessionTimestamp', String(Date.now()));
  }, JSON.stringify(tokens));
}

/**
 * The guest signed in through the real operations: the link of the task mail (the first mail after those `seen`),
 * the address code, the terms.
 */
async function guestSession(email: string, seen: Set<string>): Promise<SessionTokens> {
  const link = await newestLinkToken(app, email, seen);
  const code = await requestCode(app, email, { token: link });
  const signedIn = await signInGuestCall(app, { token: link }, code);
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201);
  const pair = signedIn.body.data.attributes as SessionTokens;
  await acceptTerms(app, pair.authorizationToken);
  return pair;
}

describe('fields the sender placed', () => {
  it(
    'a member and then a guest fill their signature and text fields, cannot sign before the required one is filled, and sign; pdfsig validates and each appearance sits at its field',
    async () => {
      const flow = await flowWithFields();
      const signPath = `/organizations/documents/${flow.documentId}/tasks/${flow.member.taskId}/sign`;

      // The member's screen in English first, only to be seen: the fields and the waiting sign button.
      const english = await browser.openSignedIn({ app, language: 'en', session: flow.pair, path: signPath });
      await heading(english, signingEn.sign.title);
      await expectEmptyFields(english, 'en', flow.member.fields);
      await expectSignButton(english, 'en', ['甲 署名']);
      await captureScreens(english, 'signer-fields-member');
      await english.close();

      const page = await browser.openSignedIn({ app, language: 'ja', session: flow.pair, path: signPath });
      await heading(page, signingJa.sign.title);
      await expectEmptyFields(page, 'ja', flow.member.fields);
      // The signature field is required; the text field is not: only the first is named as missing.
      await expectSignButton(page, 'ja', ['甲 署名']);
      await page.getByRole('region', { name: signingJa.fields.listTitle }).waitFor();
      await captureScreens(page, 'signer-fields-member');

      await fillText(page, 'ja', flow.member.fields.text, '甲 氏名', '山田 太郎');
      await expectSignButton(page, 'ja', ['甲 署名']);

      // The signature field takes the registered seal (or a handwritten signature).
      await openField(page, flow.member.fields.signature);
      const dialog = page.getByRole('dialog', { name: signingJa.fields.fillTitle.replace('{{name}}', '甲 署名') });
      await dialog.getByRole('button', { name: signingJa.placements.addHandwritten, exact: true }).waitFor();
      await dialog.getByLabel(signingJa.placements.sealSelect, exact).selectOption({ label: '山田の印' });
      await captureScreens(page, 'signer-fields-fill-signature');
      await dialog.getByRole('button', { name: signingJa.fields.useSeal, exact: true }).click();
      await expect.poll(() => fieldBox(page, flow.member.fields.signature).getAttribute('data-filled')).toBe('true');
      await expectSignButton(page, 'ja', []);
      await captureScreens(page, 'signer-fields-member-filled');

      const signRequest = page.waitForRequest(
        (request: Request) =>
          request.method() === 'POST' && request.url().endsWith(`/tasks/${flow.member.taskId}/sign`),
      );
      await page.getByRole('button', { name: signingJa.form.submit, exact: true }).click();
      const sent = (await signRequest).postDataJSON() as { data: { attributes: { placements: SentPlacement[] } } };
      await page.getByRole('heading', { name: signingJa.done.title, exact: true }).waitFor({ timeout: 120_000 });

      // The fields went by their ids, without rectangles: the server takes the sender's.
      expect(sent.data.attributes.placements).toEqual([
        { kind: 'text', page: 1, fieldId: flow.member.fields.text, lines: ['山田 太郎'] },
        { kind: 'seal', page: 1, fieldId: flow.member.fields.signature, sealImageId: flow.sealImageId },
      ]);
      const afterMember = await latestPdf(app, flow.documentId);
      const checked = pdfsig(afterMember);
      expect(checked.validations, checked.output).toEqual(['Signature is Valid.']);
      expect(hasAppearanceAt(afterMember, MEMBER_SIGNATURE), JSON.stringify(annotationRects(afterMember))).toBe(true);
      expect(hasAppearanceAt(afterMember, MEMBER_TEXT)).toBe(true);

      // The guest, on the guest panel (English): the same fields, a handwritten signature this time.
      const guestPair = await guestSession(flow.guest.email, flow.guest.mailedLinks);
      const guest = await browser.open({ app, language: 'en' });
      await guest.goto('/onetime/auth');
      await restoreGuestSession(guest, guestPair);
      await guest.goto(`/onetime/business-flows/${flow.businessFlowId}`);
      await heading(guest, '業務委託 2026');
      await expectEmptyFields(guest, 'en', flow.guestSide.fields);
      // The member's filled fields are not the guest's: they are not drawn as fields here.
      expect(await fieldBox(guest, flow.member.fields.signature).count()).toBe(0);
      await expectSignButton(guest, 'en', ['乙 署名']);
      await captureScreens(guest, 'signer-fields-guest');

      await openField(guest, flow.guestSide.fields.signature);
      const guestDialog = guest.getByRole('dialog', {
        name: signingEn.fields.fillTitle.replace('{{name}}', '乙 署名'),
      });
      // A guest has no stored seals: the seal is uploaded on the spot, or a signature drawn.
      await guestDialog.getByText(oneTimeEn.seal.choose, exact).waitFor();
      await guestDialog.getByRole('button', { name: signingEn.placements.addHandwritten, exact: true }).click();
      await drawSignature(guest, 'en');
      await expect
        .poll(() => fieldBox(guest, flow.guestSide.fields.signature).getAttribute('data-filled'))
        .toBe('true');
      await expectSignButton(guest, 'en', []);
      await fillText(guest, 'en', flow.guestSide.fields.text, '乙 氏名', 'Tanaka');
      await captureScreens(guest, 'signer-fields-guest-filled');

      const guestRequest = guest.waitForRequest(
        (request: Request) =>
          request.method() === 'POST' && request.url().endsWith(`/onetime/tasks/${flow.guestSide.taskId}/sign`),
      );
      await guest.getByRole('button', { name: signingEn.form.submit, exact: true }).click();
      const guestSent = (await guestRequest).postDataJSON() as {
        data: { attributes: { placements: SentPlacement[] } };
      };
      await toast(guest, oneTimeEn.actions.signed).waitFor({ timeout: 120_000 });
      expect(guestSent.data.attributes.placements.map((p) => [p.kind, p.fieldId, p.rect])).toEqual([
        ['handwritten', flow.guestSide.fields.signature, undefined],
        ['text', flow.guestSide.fields.text, undefined],
      ]);

      const final = await latestPdf(app, flow.documentId);
      const all = pdfsig(final);
      expect(all.validations, all.output).toEqual(['Signature is Valid.', 'Signature is Valid.']);
      for (const rect of [MEMBER_SIGNATURE, MEMBER_TEXT, GUEST_SIGNATURE, GUEST_TEXT]) {
        expect(
          hasAppearanceAt(final, rect),
          `${JSON.stringify(rect)} in ${JSON.stringify(annotationRects(final))}`,
        ).toBe(true);
      }
      await expect
        .poll(
          async () => (await app.service.deps.knex('business_flows').where({ id: flow.businessFlowId }).first()).status,
        )
        .toBe('complete');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "shows a draft's flow page with 下書き, 「編集を続ける」 into the wizard and 「破棄」 with a confirmation, and lists drafts only when asked",
    async () => {
      const { org, pair, token, page } = await browser.openAsOwner({ app });
      await page.close();
      const groupId = await firstGroupId(app, org.organizationId);
      const { workspaceId } = await seedBusinessFlow(app, {
        organizationId: org.organizationId,
        groupId,
        createdBy: org.ownerId,
        name: '進行中のフロー',
      });
      const draft = await createFlow(app, token, workspaceId, {
        name: '下書きの契約',
        autoComplete: true,
        draft: true,
      });
      expect(draft.attributes.status).toBe('draft');
      const flowPath = `/business-flows/${draft.id}`;
      // The seeded workspace's name, in Latin letters on the ja screens.
      const data = { allow: ['進行中のフロー workspace'] };

      for (const language of ['en', 'ja'] as const) {
        const t = language === 'ja' ? flowsJa : flowsEn;
        const view = await browser.openSignedIn({
          app,
          language,
          session: pair,
          path: flowPath,
          heading: '下書きの契約',
        });
        await view.locator('.screen-header .badge').getByText(t.status.draft, exact).waitFor();
        const drafted = view.getByRole('region', { name: t.draft.title });
        await drafted.getByText(t.draft.notice, exact).waitFor();
        const resume = drafted.getByRole('link', { name: t.draft.continue, exact: true });
        expect(await resume.getAttribute('href')).toBe(`/organizations/business-flows/new?draft=${draft.id}`);
        // No status actions on a draft: nothing is live until it is sent.
        expect(await view.getByRole('button', { name: t.detail.complete, exact: true }).count()).toBe(0);
        expect(await view.getByRole('button', { name: t.detail.cancel, exact: true }).count()).toBe(0);
        await captureScreens(view, 'flow-draft-detail', data);

        // The list leaves drafts out until the status filter asks for them.
        await view.goto('/organizations/business-flows');
        await view.getByRole('link', { name: '進行中のフロー', exact: true }).waitFor();
        expect(await view.getByRole('link', { name: '下書きの契約', exact: true }).count()).toBe(0);
        await view.getByLabel(t.status.draft, exact).check();
        await view.getByRole('button', { name: t.search.submit, exact: true }).click();
        await view.getByRole('link', { name: '下書きの契約', exact: true }).waitFor();
        expect(new URL(view.url()).searchParams.get('status')).toBe('draft');
        await captureScreens(view, 'flow-list-drafts', data);
        if (language === 'en') await view.close();
        else {
          await view.getByRole('link', { name: '下書きの契約', exact: true }).click();
          await heading(view, '下書きの契約');
          const discard = view.getByRole('region', { name: t.draft.title }).getByRole('button', {
            name: t.draft.discard,
            exact: true,
          });
          await discard.click();
          const confirm = view.getByRole('dialog', { name: t.draft.discardTitle.replace('{{name}}', '下書きの契約') });
          await confirm.getByText(t.draft.discardBody, exact).waitFor();
          await captureScreens(view, 'flow-draft-discard', data);
          await confirm.getByRole('button', { name: t.draft.discard, exact: true }).click();
          await toast(view, t.draft.discarded.replace('{{name}}', '下書きの契約')).waitFor();
          await landedOn(view, '/organizations/business-flows');
          const gone = await app.api.call('getBusinessFlow', { token, params: { businessFlowId: draft.id } });
          expect(gone.status).toBe(404);
        }
      }
    },
    JOURNEY_TIMEOUT,
  );
});
