/*
 * The attack builders of tests/helpers/pdf-attacks.ts produce what they claim, checked with tools that are not ours:
 * qpdf for well-formedness, pdftotext and pdftoppm (poppler) for what a viewer shows, pdfsig for what a common
 * verifier concludes (it does not notice shadow attacks: that is the point), and byte comparison for "every byte
 * the first signature covers is unchanged".
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureContents } from '../../core/signing/byte-ranges.ts';
import type { SigningEngine } from '../../core/signing/engine.ts';
import { signPdf } from '../../core/signing/pades.ts';
import type { SignPdfInput, SigningKey } from '../../core/signing/types.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import {
  addApprovalSignatureWithStamps,
  appendFreeTextAnnotation,
  appendOverlayText,
  appendUnsignedRevision,
  buildFormPdf,
  buildInvoicePdf,
  FORM_FIELD,
  injectIntoGap,
  isCertified,
  prepareHideAndReplaceOriginal,
  prepareHideOriginal,
  prepareReplaceOriginal,
  redefineSignatureDictionary,
  repeatByteRange,
  rewriteWithPdfLib,
  rewriteWithQpdf,
  SHADOW_TEXT,
  shadowHide,
  shadowHideAndReplace,
  shadowReplace,
  trailingGarbage,
} from '../helpers/pdf-attacks.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { pdfsig, qpdfCheck, signedBytes, tempFile } from '../helpers/signing.ts';

let app: TestApp;
let engine: SigningEngine;
let operator: SigningKey;
let signed: Uint8Array;

const signInput = (pdf: Uint8Array, extra: Partial<SignPdfInput> = {}): SignPdfInput => ({
  pdf,
  key: operator,
  level: 'B-B',
  signerName: '山田 太郎',
  claimedTime: app.clock.now(),
  ...extra,
});
const sign = async (pdf: Uint8Array, extra: Partial<SignPdfInput> = {}) => (await signPdf(signInput(pdf, extra))).pdf;

beforeAll(async () => {
  app = await startApp();
  engine = app.service.deps.signing;
  operator = await engine.operatorKey();
  signed = await sign(await buildPdf({ text: 'Keiyaku attack test' }));
});
afterAll(() => app.close());

/** Page 1's text as poppler extracts it (no occlusion: covered text is still extracted). */
function pdftotext(pdf: Uint8Array): string {
  return execFileSync('pdftotext', ['-f', '1', '-l', '1', tempFile('text.pdf', pdf), '-'], { encoding: 'latin1' });
}

/** Page 1 rendered by poppler as an 8-bit grey PGM at 40 dpi: what a viewer shows, pixel for pixel. */
function render(pdf: Uint8Array): Buffer {
  const prefix = tempFile('render');
  execFileSync('pdftoppm', [
    '-f',
    '1',
    '-l',
    '1',
    '-r',
    '40',
    '-gray',
    '-singlefile',
    tempFile('render.pdf', pdf),
    prefix,
  ]);
  return readFileSync(`${prefix}.pgm`);
}

/**
 * Every byte the first signature of `before` covers is still at the same place in `after`; for an incremental
 * attack (not a gap injection) its whole revision, the /Contents gap included, is a prefix of `after`.
 */
function expectFirstSignatureBytesKept(before: Uint8Array, after: Uint8Array, { incremental = true } = {}): void {
  const { byteRange } = signatureContents(before)[0]!;
  const [, , c, d] = byteRange;
  expect(after.length).toBeGreaterThanOrEqual(c + d);
  expect(signedBytes(after, byteRange).equals(signedBytes(before, byteRange))).toBe(true);
  if (incremental) {
    expect(Buffer.from(after.subarray(0, c + d)).equals(Buffer.from(before.subarray(0, c + d)))).toBe(true);
  }
}

function qpdfOk(pdf: Uint8Array): void {
  expect(qpdfCheck(pdf)).toContain('No syntax or stream encoding errors found');
}

describe('changes after signing', () => {
  it('an overlay content stream makes page 1 show "PAID IN FULL" while pdfsig still says the signature is valid', async () => {
    const attacked = await appendOverlayText(signed);
    qpdfOk(attacked);
    expectFirstSignatureBytesKept(signed, attacked);
    expect(pdftotext(signed)).not.toContain('PAID IN FULL');
    expect(pdftotext(attacked)).toContain('PAID IN FULL');
    expect(pdftotext(attacked)).toContain('Keiyaku attack test');
    expect(render(attacked).equals(render(signed))).toBe(false);
    const result = pdfsig(attacked);
    expect(result.validations).toEqual(['Signature is Valid.']);
    expect(result.output).toContain('Not total document signed');
  });

  it('a FreeText annotation is drawn on page 1 from its own appearance', async () => {
    const attacked = await appendFreeTextAnnotation(signed, 'Approved by accounting');
    qpdfOk(attacked);
    expectFirstSignatureBytesKept(signed, attacked);
    expect(pdftotext(attacked)).toContain('Approved by accounting');
    expect(render(attacked).equals(render(signed))).toBe(false);
    expect(pdfsig(attacked).validations).toEqual(['Signature is Valid.']);
  });
});

describe('shadow attacks on a prepared original signed by our engine', () => {
  const honest = () => render(buildInvoicePdf(SHADOW_TEXT.honest));
  const evil = () => render(buildInvoicePdf(SHADOW_TEXT.evil));

  it('hide: emptying the overlay XObject reveals the amount it covered', async () => {
    const original = await sign(prepareHideOriginal());
    qpdfOk(original);
    // Text extraction sees through the white box; the rendering does not.
    expect(pdftotext(original)).toContain('9,999,999');
    expect(render(original).equals(honest())).toBe(true);
    const attacked = await shadowHide(original);
    qpdfOk(attacked);
    expectFirstSignatureBytesKept(original, attacked);
    expect(render(attacked).equals(evil())).toBe(true);
    expect(pdftotext(attacked)).not.toContain(SHADOW_TEXT.honest);
    expect(pdfsig(attacked).validations).toEqual(['Signature is Valid.']);
  });

  it('replace: redefining the amount XObject changes the amount shown', async () => {
    const original = await sign(prepareReplaceOriginal());
    qpdfOk(original);
    expect(pdftotext(original)).toContain(SHADOW_TEXT.honest);
    expect(pdftotext(original)).not.toContain(SHADOW_TEXT.evil);
    expect(render(original).equals(honest())).toBe(true);
    const attacked = await shadowReplace(original);
    qpdfOk(attacked);
    expectFirstSignatureBytesKept(original, attacked);
    expect(pdftotext(attacked)).toContain(SHADOW_TEXT.evil);
    expect(pdftotext(attacked)).not.toContain(SHADOW_TEXT.honest);
    expect(render(attacked).equals(evil())).toBe(true);
    expect(pdfsig(attacked).validations).toEqual(['Signature is Valid.']);
  });

  it('hide-and-replace: pointing the page at the signed but unreferenced payload shows it, with no new content', async () => {
    const original = await sign(prepareHideAndReplaceOriginal());
    qpdfOk(original);
    expect(pdftotext(original)).not.toContain(SHADOW_TEXT.evil);
    expect(render(original).equals(honest())).toBe(true);
    const attacked = await shadowHideAndReplace(original);
    qpdfOk(attacked);
    expectFirstSignatureBytesKept(original, attacked);
    const update = Buffer.from(attacked.subarray(original.length)).toString('latin1');
    expect(update).not.toContain('stream');
    expect(update.length).toBeLessThan(1024);
    expect(pdftotext(attacked)).toContain(SHADOW_TEXT.evil);
    expect(render(attacked).equals(evil())).toBe(true);
    expect(pdfsig(attacked).validations).toEqual(['Signature is Valid.']);
  });
});

describe('attacks on the signature', () => {
  it('bytes injected into the /Contents gap keep the ByteRange and the length; the byte scanner loses the signature', async () => {
    const attacked = await injectIntoGap(signed);
    qpdfOk(attacked);
    expect(attacked.length).toBe(signed.length);
    expectFirstSignatureBytesKept(signed, attacked, { incremental: false });
    expect(Buffer.from(attacked).toString('latin1')).toMatch(/<[0-9A-F ]+> \/Injected <0+>/);
    expect(signatureContents(signed)).toHaveLength(1);
    expect(signatureContents(attacked)).toHaveLength(0);
    // pdfsig reads /Contents as an object (the first hex string), so it still finds and verifies the signature.
    expect(pdfsig(attacked).validations).toEqual(['Signature is Valid.']);
  });

  const pdfsigSays = {
    'byte-range': 'Digest Mismatch.',
    contents: 'Unknown Validation Failure.',
    metadata: 'Signature is Valid.',
  } as const;
  it.each(['byte-range', 'contents', 'metadata'] as const)(
    'redefining the signature dictionary (%s) in a later revision',
    async (change) => {
      const attacked = await redefineSignatureDictionary(signed, 0, change);
      const [, , c, d] = signatureContents(signed)[0]!.byteRange;
      qpdfOk(attacked);
      expectFirstSignatureBytesKept(signed, attacked);
      // pdfsig reads the redefined dictionary: a shortened range, an unreadable CMS, or the forger's /M shown as
      // the signing time of a signature it still calls valid.
      const result = pdfsig(attacked);
      expect(result.validations).toEqual([pdfsigSays[change]]);
      if (change === 'byte-range') expect(result.output).not.toContain(`[${c} - ${c + d}]`);
      if (change === 'metadata') expect(result.output).toContain('Signing Time: Jan 01 2030');
    },
  );

  it('5,000 repeated ByteRanges in one revision: one small file, 5,001 ByteRanges over the same gap', async () => {
    const attacked = await repeatByteRange(signed, 5000);
    expectFirstSignatureBytesKept(signed, attacked);
    expect(attacked.length - signed.length).toBeLessThan(2_000_000);
    qpdfOk(attacked);
    const found = signatureContents(attacked);
    expect(found).toHaveLength(5001);
    expect(new Set(found.map((s) => s.byteRange.join(' '))).size).toBe(1);
    // pdfsig counts every copy as one more valid signature.
    expect(pdfsig(await repeatByteRange(signed, 3)).validations).toEqual(Array(4).fill('Signature is Valid.'));
  });
});

describe('full rewrites', () => {
  it('qpdf rewriting the file breaks the first signature', async () => {
    const rewritten = rewriteWithQpdf(signed);
    qpdfOk(rewritten);
    expect(pdftotext(rewritten)).toContain('Keiyaku attack test');
    expect(Buffer.from(rewritten.subarray(0, 1000)).equals(Buffer.from(signed.subarray(0, 1000)))).toBe(false);
    const result = pdfsig(rewritten);
    expect(result.validations).toEqual(['Signature has not yet been verified.']);
    expect(result.output).toContain('Illegal values in ByteRange array');
  });

  it('pdf-lib saving the file again breaks the first signature', async () => {
    const rewritten = await rewriteWithPdfLib(signed);
    qpdfOk(rewritten);
    expect(pdftotext(rewritten)).toContain('Keiyaku attack test');
    expect(rewritten.length).not.toBe(signed.length);
    expect(pdfsig(rewritten).validations).toEqual(['Signature has not yet been verified.']);
  });
});

describe('small unsigned revisions', () => {
  it('metadata: a new /Info title', async () => {
    const changed = await appendUnsignedRevision(signed, 'metadata', { title: 'Changed title' });
    qpdfOk(changed);
    expectFirstSignatureBytesKept(signed, changed);
    expect(execFileSync('pdfinfo', [tempFile('info.pdf', changed)], { encoding: 'utf8' })).toMatch(
      /Title:\s+Changed title/,
    );
    expect(render(changed).equals(render(signed))).toBe(true);
  });

  it('an empty, unsigned signature field', async () => {
    const changed = await appendUnsignedRevision(signed, 'annotation-widget-of-new-field');
    qpdfOk(changed);
    expectFirstSignatureBytesKept(signed, changed);
    expect(render(changed).equals(render(signed))).toBe(true);
    const result = pdfsig(changed);
    expect(result.validations).toEqual(['Signature is Valid.']);
    expect(result.output).toContain('Signature Field Name: EmptySignature\n  The signature form field is not signed.');
  });

  it('form-fill: the text field of a signed form shows the new value', async () => {
    const form = await sign(await buildFormPdf());
    const filled = await appendUnsignedRevision(form, 'form-fill');
    qpdfOk(filled);
    expectFirstSignatureBytesKept(form, filled);
    expect(pdftotext(form)).not.toContain(FORM_FIELD.filled);
    expect(pdftotext(filled)).toContain(FORM_FIELD.filled);
    expect(pdfsig(filled).validations).toEqual(['Signature is Valid.']);
  });

  it('trailing objects after %%EOF without an xref: poppler keeps showing the signed page', async () => {
    const attacked = await trailingGarbage(signed);
    expectFirstSignatureBytesKept(signed, attacked);
    expect(Buffer.from(attacked.subarray(signed.length)).toString('latin1')).not.toMatch(/xref|trailer|startxref/);
    expect(render(attacked).equals(render(signed))).toBe(true);
    expect(pdftotext(attacked)).not.toContain('PAID IN FULL');
    qpdfOk(attacked);
    const result = pdfsig(attacked);
    expect(result.validations).toEqual(['Signature is Valid.']);
    expect(result.output).toContain('Not total document signed');
  });
});

describe('certified documents', () => {
  it.each([1, 2] as const)(
    'P=%i: an approval signature with stamp annotations, and a FreeText annotation, after the certification',
    async (level) => {
      const certified = await sign(await buildPdf(), { certify: level });
      expect(await isCertified(certified)).toBe(true);
      const approved = await addApprovalSignatureWithStamps(certified, operator, { stamps: 2 });
      qpdfOk(approved);
      expectFirstSignatureBytesKept(certified, approved);
      expect(render(approved).equals(render(certified))).toBe(false);
      expect(pdftotext(approved)).toContain('APPROVED');
      // pdfsig does not enforce DocMDP: both signatures are valid to it, whatever P allows.
      expect(pdfsig(approved).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
      const annotated = await appendFreeTextAnnotation(certified, 'Looks good');
      qpdfOk(annotated);
      expectFirstSignatureBytesKept(certified, annotated);
      expect(pdftotext(annotated)).toContain('Looks good');
    },
  );
});
