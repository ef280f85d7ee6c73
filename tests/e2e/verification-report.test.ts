import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { softwareKey } from '../../core/signing/keys.ts';
import { readPkcs12 } from '../../core/signing/pkcs12.ts';
import type { SignPdfInput } from '../../core/signing/types.ts';
import en from '../../web/src/i18n/en/signing.json' with { type: 'json' };
import ja from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import {
  DESKTOP,
  exact,
  type Language,
  MOBILE,
  screenshot,
  signIn,
  signUpOrganization,
  useApp,
  useBrowser,
  type SessionTokens,
  type Viewport,
} from '../helpers/browser.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { engineSign, makePkcs12 } from '../helpers/signing.ts';
import { startTestCa, type TestCa } from '../peers/test-ca.ts';

// The verify screen in chromium against the real service: PDFs signed by the real engine, then changed after
// signing, left unsigned or broken, each uploaded and its report shown in ja and en, on a desktop and a phone.

// A CA of the test's own (openssl, with a CRL server) whose root the service trusts, for a revoked signer.
let ca: TestCa;
beforeAll(async () => {
  ca = await startTestCa({ crlValiditySeconds: 3600 });
});
afterAll(() => ca?.stop());

const app = useApp(() => ({
  plugins: BUILT_IN_PLUGINS.filter((plugin) => !/scan/.test(plugin.name)),
  env: { SIGNING_TRUST_ANCHORS_FILE: ca.rootFile },
}));
const browser = useBrowser();
const TEXTS = { ja, en } as const;

/** Signing (with its timestamp) and verifying on a two-core machine. */
const CASE_TIMEOUT = 240_000;

let session: Promise<SessionTokens> | null = null;
/** One organization owner for the whole file: the verify screen needs only a signed-in user. */
function owner(): Promise<SessionTokens> {
  session ??= signUpOrganization(app).then((org) => signIn(app, org.loginId, org.password));
  return session;
}

async function sign(pdf: Uint8Array, extra: Partial<SignPdfInput> = {}): Promise<Uint8Array> {
  return (await engineSign(app, pdf, extra)).pdf;
}

/** An incremental update drawing a red box and a line of text on page 1: an overlay no signature allows. */
async function appendOverlay(signed: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(signed, { forIncrementalUpdate: true, updateMetadata: false });
  const snapshot = doc.takeSnapshot();
  const page = doc.getPages()[0]!;
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawRectangle({ x: 40, y: 600, width: 300, height: 60, color: rgb(1, 0.9, 0.9) });
  page.drawText('Amount: 9,999,999 JPY', { x: 50, y: 620, size: 18, font, color: rgb(0.8, 0, 0) });
  snapshot.markRefForSave(page.ref);
  const increment = await doc.saveIncremental(snapshot, { useObjectStreams: false });
  return Buffer.concat([signed, increment]);
}

/**
 * The signature's ByteRange gap with its last bytes before `>` overwritten by `> /X <`: the gap then holds more than
 * the /Contents string, which no verifier may accept as a signature it can check.
 */
function breakGap(signed: Uint8Array): Uint8Array {
  const text = Buffer.from(signed).toString('latin1');
  const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text);
  if (!match) throw new Error('no ByteRange in the signed PDF');
  const gapEnd = Number(match[3]); // the byte after the '>' closing /Contents
  const injected = '> /X <';
  const before = text.slice(gapEnd - 1 - injected.length, gapEnd - 1);
  expect(before).toMatch(/^0+$/); // only the zero padding of the reserved space is overwritten
  expect(text[gapEnd - 1]).toBe('>');
  const broken = Buffer.from(signed);
  broken.write(injected, gapEnd - 1 - injected.length, 'latin1');
  return broken;
}

/** Each language's report is uploaded once, looked at on a desktop, then on a phone (the same page resized). */
const LANGUAGES: Language[] = ['ja', 'en'];
const VIEWPORTS: Viewport[] = [DESKTOP, MOBILE];

/** Opens the verify screen signed in, uploads `pdf` and waits for the report's verdict banner. */
async function verifyOn(language: Language, viewport: Viewport, name: string, pdf: Uint8Array): Promise<Page> {
  const t = TEXTS[language];
  const page = await browser.openSignedIn({
    app,
    language,
    viewport,
    session: await owner(),
    path: '/organizations/signatures/verify',
    heading: t.verify.title,
  });
  await page
    .getByLabel(t.verify.file, exact)
    .setInputFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
  await page.getByRole('button', { name: t.verify.submit, exact: true }).click();
  await page.locator('.report-verdict').waitFor({ timeout: 60_000 });
  return page;
}

/** The verdict banner's title, the page's horizontal overflow, and a full-page screenshot. */
async function look(page: Page, shot: string) {
  const verdict = (await page.locator('.report-verdict-title').textContent())?.trim();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  await screenshot(page, shot);
  return { verdict, overflow };
}

/**
 * Each case: the PDF, and per language what the report must show. Every screen is looked at, then the assertions
 * run, so one wrong verdict still leaves all four screenshots of the case behind.
 */
async function checkCase(
  name: string,
  pdf: Uint8Array,
  expected: (language: Language, page: Page) => Promise<void> | void,
  verdict: (language: Language) => string,
) {
  const failures: string[] = [];
  for (const language of LANGUAGES) {
    const page = await verifyOn(language, VIEWPORTS[0]!, `${name}.pdf`, pdf);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const seen = await look(page, `verification-report-${name}-${language}-${viewport.width}`);
      if (seen.verdict !== verdict(language)) {
        failures.push(`${language} ${viewport.width}px: banner "${seen.verdict}", expected "${verdict(language)}"`);
      }
      if (seen.overflow > 0) failures.push(`${language} ${viewport.width}px: ${seen.overflow}px wider than the screen`);
      try {
        await expected(language, page);
      } catch (error) {
        failures.push(`${language} ${viewport.width}px: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  expect(failures).toEqual([]);
}

describe('the verification report screen', () => {
  it(
    'shows "changed after signing" for a signed PDF with an overlay appended after signing',
    async () => {
      const pdf = await appendOverlay(await sign(await buildPdf({ pages: 2 })));
      await checkCase(
        'changed-after-signing',
        pdf,
        async (language, page) => {
          const changes = page.getByRole('region', { name: TEXTS[language].report.changesTitle });
          await changes.getByText(TEXTS[language].report.changeKinds['page-content'], exact).first().waitFor();
          await changes.getByText(TEXTS[language].report.changeNotAllowed, exact).first().waitFor();
        },
        (language) => TEXTS[language].report.verdicts['changed-after-signing'],
      );
    },
    CASE_TIMEOUT,
  );

  it(
    'shows "no signatures" for an unsigned PDF',
    async () => {
      await checkCase(
        'no-signatures',
        await buildPdf(),
        () => undefined,
        (language) => TEXTS[language].report.verdicts['no-signatures'],
      );
    },
    CASE_TIMEOUT,
  );

  it(
    'shows "altered" for a signature whose ByteRange gap holds more than its /Contents',
    async () => {
      const pdf = breakGap(await sign(await buildPdf()));
      await checkCase(
        'broken-gap',
        pdf,
        async (language, page) => {
          const entry = page.getByRole('region', {
            name: TEXTS[language].report.signatureTitle.replace('{{position}}', '1'),
          });
          await entry.getByText(TEXTS[language].problems['byte-range-gap-invalid'], exact).waitFor();
        },
        // Bytes the signature does not cover were slipped in: the headline says so, not just "invalid".
        (language) => TEXTS[language].report.verdicts.altered,
      );
    },
    CASE_TIMEOUT,
  );

  it(
    'shows "cannot be checked" for a signature whose certificate chains to no trusted root',
    async () => {
      const p12 = await readPkcs12(makePkcs12({ commonName: 'Self Signed', pin: '1234' }), '1234');
      const key = softwareKey({ privateKey: p12.privateKeyPkcs8, certificate: p12.certificate, chain: p12.chain });
      const pdf = await sign(await buildPdf(), { key });
      await checkCase(
        'cannot-be-checked',
        pdf,
        async (language, page) => {
          const entry = page.getByRole('region', {
            name: TEXTS[language].report.signatureTitle.replace('{{position}}', '1'),
          });
          await entry.getByText(TEXTS[language].problems['chain-untrusted'], exact).waitFor();
        },
        (language) => TEXTS[language].report.verdicts.indeterminate,
      );
    },
    CASE_TIMEOUT,
  );

  it(
    'shows "revoked" for a signature whose certificate its CA revoked before the signature timestamp',
    async () => {
      const issued = await ca.issue('Revoked Signer', 'revoked.signer@example.com', { ocsp: false, pin: '1234' });
      const p12 = await readPkcs12(issued.p12, '1234');
      const key = softwareKey({ privateKey: p12.privateKeyPkcs8, certificate: p12.certificate, chain: p12.chain });
      await ca.revoke(issued.certDer, 'keyCompromise');
      app.clock.advance(60_000); // the signature timestamp (the service's clock) comes after the revocation
      const pdf = await sign(await buildPdf(), { key, signerName: 'Revoked Signer' });
      await checkCase(
        'revoked',
        pdf,
        async (language, page) => {
          const entry = page.getByRole('region', {
            name: TEXTS[language].report.signatureTitle.replace('{{position}}', '1'),
          });
          await entry.locator('[data-revocation="revoked"]').waitFor();
          await entry.getByText(TEXTS[language].problems['certificate-revoked'], exact).waitFor();
        },
        (language) => TEXTS[language].report.verdicts.invalid,
      );
    },
    CASE_TIMEOUT,
  );

  it(
    'shows "certified: no changes allowed" for a PDF certified with P=1',
    async () => {
      const pdf = await sign(await buildPdf(), { certify: 1 });
      await checkCase(
        'certified-p1',
        pdf,
        async (language, page) => {
          const section = page.getByRole('region', { name: TEXTS[language].report.certificationTitle });
          await section.getByText(TEXTS[language].report.certificationLevels['1'], exact).waitFor();
        },
        (language) => TEXTS[language].report.verdicts.valid,
      );
    },
    CASE_TIMEOUT,
  );
});
