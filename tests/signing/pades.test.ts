/*
 * The PAdES engine checked by tools that are not ours: poppler's pdfsig for each signature, OpenSSL for the CMS over
 * the extracted ByteRange (`openssl cms -verify`) and for every RFC 3161 token (`openssl ts -verify`), qpdf for the
 * file's structure, pdftotext for the embedded Japanese text.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { P12Signer } from '@signpdf/signer-p12';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributeValue, OID, parseSignedData } from '../../core/signing/cms.ts';
import type { SigningEngine } from '../../core/signing/engine.ts';
import { softwareKey } from '../../core/signing/keys.ts';
import { signatureContents } from '../../core/signing/byte-ranges.ts';
import { addDocumentTimestamp, addValidationData } from '../../core/signing/pades.ts';
import { httpTimestampAuthority } from '../../core/signing/tsa.ts';
import type { SignPdfInput } from '../../core/signing/types.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { engineSign, opensslCms, opensslTs, sealPng, signedBytes } from '../helpers/signing.ts';

let app: TestApp;
let engine: SigningEngine;
const dir = mkdtempSync(path.join(tmpdir(), 'keiyaku-pades-'));
let caFile: string;

beforeAll(async () => {
  app = await startApp();
  engine = app.service.deps.signing;
  caFile = write(
    'local-ca.pem',
    Buffer.from(new X509Certificate((await engine.pki.key('local-ca')).certificate).toString()),
  );
});
afterAll(() => app.close());

let counter = 0;
function write(name: string, bytes: Uint8Array | string): string {
  const file = path.join(dir, `${counter++}-${name}`);
  writeFileSync(file, bytes);
  return file;
}

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** pdfsig's per-signature lines: "Signature is Valid." and the SubFilter for each signature in file order. */
function pdfsig(pdf: Uint8Array): { validations: string[]; types: string[]; output: string } {
  const { output } = run('pdfsig', [write('doc.pdf', pdf)]);
  return {
    validations: [...output.matchAll(/Signature Validation: (.+)/g)].map((m) => m[1]!.trim()),
    types: [...output.matchAll(/Signature Type: (.+)/g)].map((m) => m[1]!.trim()),
    output,
  };
}

function qpdfCheck(pdf: Uint8Array): void {
  execFileSync('qpdf', ['--check', write('check.pdf', pdf)], { encoding: 'utf8' });
}

const sign = (pdf: Uint8Array, extra: Partial<SignPdfInput> = {}) => engineSign(app, pdf, extra);

describe('PAdES baseline signatures', () => {
  it('B-B: CAdES detached without signingTime; pdfsig and openssl cms verify it', async () => {
    const { pdf } = await sign(await buildPdf({ pages: 3 }), { level: 'B-B' });
    const result = pdfsig(pdf);
    expect(result.validations).toEqual(['Signature is Valid.']);
    expect(result.types).toEqual(['ETSI.CAdES.detached']);
    expect(opensslCms(pdf, 0, caFile)).toMatchObject({ ok: true });
    const { signedData } = parseSignedData(signatureContents(pdf)[0]!.der);
    const signerInfo = signedData.signerInfos[0]!;
    expect(attributeValue(signerInfo, OID.signingTime)).toBeNull();
    expect(attributeValue(signerInfo, OID.signingCertificateV2)).not.toBeNull();
    expect(attributeValue(signerInfo, OID.contentType)).not.toBeNull();
    qpdfCheck(pdf);
    const report = await engine.verify(pdf);
    expect(report.signatures[0]).toMatchObject({
      integrity: 'valid',
      padesLevel: 'B-B',
      coverage: 'whole-document',
      problems: [],
    });
  });

  it('B-T: the signature timestamp token verifies with openssl ts over the signature value', async () => {
    const { pdf, timestampTime } = await sign(await buildPdf());
    expect(timestampTime).toBeInstanceOf(Date);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    expect(opensslCms(pdf, 0, caFile)).toMatchObject({ ok: true });
    const { signedData } = parseSignedData(signatureContents(pdf)[0]!.der);
    const signerInfo = signedData.signerInfos[0]!;
    const token = attributeValue(signerInfo, OID.signatureTimeStampToken, true)!;
    const digest = createHash('sha256').update(signerInfo.signature.valueBlock.valueHexView).digest('hex');
    expect(opensslTs(new Uint8Array(token.toBER(false)), { digest }, caFile)).toMatchObject({ ok: true });
    const report = await engine.verify(pdf);
    expect(report.signatures[0]).toMatchObject({
      padesLevel: 'B-T',
      timestamp: { valid: true, local: true, tsa: expect.stringContaining('local TSA') },
    });
  });

  it('B-LT and B-LTA: DSS with CRLs and VRI, then a document timestamp openssl ts verifies', async () => {
    const lt = await sign(await buildPdf(), { level: 'B-LT' });
    expect((await engine.verify(lt.pdf)).signatures[0]).toMatchObject({
      padesLevel: 'B-LT',
      ltv: { dss: true, crls: 1 },
    });
    const lta = await sign(await buildPdf(), { level: 'B-LTA' });
    expect(lta.documentTimestampNotAfter!.getTime()).toBeGreaterThan(Date.now());
    const result = pdfsig(lta.pdf);
    expect(result.validations[0]).toBe('Signature is Valid.');
    expect(result.output).toContain('DocumentTimestamp1');
    const timestamps = signatureContents(lta.pdf);
    const documentTimestamp = timestamps[1]!;
    expect(
      opensslTs(documentTimestamp.der, { data: signedBytes(lta.pdf, documentTimestamp.byteRange) }, caFile),
    ).toMatchObject({ ok: true });
    qpdfCheck(lta.pdf);
    const report = await engine.verify(lta.pdf);
    expect(report.signatures.map((s) => [s.kind, s.integrity, s.padesLevel])).toEqual([
      ['signature', 'valid', 'B-LTA'],
      ['document-timestamp', 'valid', null],
    ]);
    expect(report.signatures[0]!.coverage).toBe('revision');
    expect(report.revisions).toBe(4);
  });

  it('a second signature is an incremental update: both stay valid', async () => {
    const first = await sign(await buildPdf({ pages: 2 }));
    const second = await sign(first.pdf, { signerName: 'Second Signer' });
    expect(Buffer.from(second.pdf.subarray(0, first.pdf.length)).equals(Buffer.from(first.pdf))).toBe(true);
    expect(pdfsig(second.pdf).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
    expect(opensslCms(second.pdf, 0, caFile)).toMatchObject({ ok: true });
    expect(opensslCms(second.pdf, 1, caFile)).toMatchObject({ ok: true });
    qpdfCheck(second.pdf);
    const report = await engine.verify(second.pdf);
    expect(report.signatures.map((s) => s.coverage)).toEqual(['revision', 'whole-document']);
    expect(report.allIntact).toBe(true);
  });

  it('draws a seal image and Japanese text as an embedded font subset with a ToUnicode map', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
      'base64',
    );
    const { pdf } = await sign(await buildPdf(), {
      appearances: [
        { page: 1, rect: [400, 700, 480, 780], image: { bytes: png, contentType: 'image/png' } },
        { page: 1, rect: [300, 600, 500, 680], text: ['山田太郎', '承認', 'ABC1234'] },
      ],
    });
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    qpdfCheck(pdf);
    const fonts = execFileSync('pdffonts', [write('fonts.pdf', pdf)], { encoding: 'utf8' });
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansJP\S*\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    const images = execFileSync('pdfimages', ['-list', write('images.pdf', pdf)], { encoding: 'utf8' });
    expect(images).toMatch(/\s2\s+2\s+rgb/);
  });

  it('signs with an ECDSA P-256 key', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const keyFile = write('ec.key', privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    const certFile = path.join(dir, 'ec.crt');
    execFileSync('openssl', [
      'req',
      '-x509',
      '-key',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=EC Signer',
      '-days',
      '30',
    ]);
    const key = softwareKey({
      privateKey,
      certificate: new Uint8Array(new X509Certificate(readFileSync(certFile)).raw),
    });
    expect(key.algorithm).toBe('ECDSA-P256');
    const { pdf } = await sign(await buildPdf(), { key });
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    const report = await engine.verify(pdf);
    expect(report.signatures[0]).toMatchObject({ integrity: 'valid', chain: 'untrusted', padesLevel: 'B-T' });
  });

  it('reports a tampered byte as broken integrity', async () => {
    const { pdf } = await sign(await buildPdf());
    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf('/MediaBox');
    expect(at).toBeGreaterThan(0);
    tampered[at + 1] = 'm'.charCodeAt(0); // inside the first signed range
    const report = await engine.verify(tampered);
    expect(report.allIntact).toBe(false);
    expect(report.signatures[0]).toMatchObject({
      integrity: 'invalid',
      problems: expect.arrayContaining(['digest-mismatch']),
    });
    expect(pdfsig(tampered).validations[0]).not.toBe('Signature is Valid.');
  });

  it('reads a PDF signed elsewhere (adbe.pkcs7.detached with signingTime): intact, not PAdES', async () => {
    const p12File = path.join(dir, 'elsewhere.p12');
    const keyFile = path.join(dir, 'elsewhere.key');
    const certFile = path.join(dir, 'elsewhere.crt');
    execFileSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=Elsewhere',
      '-days',
      '30',
    ]);
    execFileSync('openssl', [
      'pkcs12',
      '-export',
      '-inkey',
      keyFile,
      '-in',
      certFile,
      '-out',
      p12File,
      '-passout',
      'pass:pw',
    ]);
    const withPlaceholder = plainAddPlaceholder({
      pdfBuffer: await buildPdf(),
      reason: 'elsewhere',
      contactInfo: 'x@example.com',
      name: 'Elsewhere',
      location: 'Tokyo',
    });
    const signed = await new SignPdf().sign(
      withPlaceholder,
      new P12Signer(readFileSync(p12File), { passphrase: 'pw' }),
    );
    const report = await engine.verify(signed);
    expect(report.signatures[0]).toMatchObject({
      subFilter: 'adbe.pkcs7.detached',
      integrity: 'valid',
      padesLevel: null,
      chain: 'untrusted',
    });
  });

  it('adds a document timestamp on its own (timestamp-only signature type)', async () => {
    const { pdf } = await addDocumentTimestamp(await buildPdf(), engine.tsa);
    const [token] = signatureContents(pdf);
    expect(opensslTs(token!.der, { data: signedBytes(pdf, token!.byteRange) }, caFile)).toMatchObject({ ok: true });
    expect((await engine.verify(pdf)).signatures[0]).toMatchObject({ kind: 'document-timestamp', integrity: 'valid' });
  });
});

describe('TSA failures fail the signing', () => {
  let server: Server;
  let reply: (body: Buffer) => Buffer | null;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = reply(Buffer.concat(chunks));
        if (!body) {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('an unreachable or failing TSA is TSA_UNAVAILABLE', async () => {
    reply = () => null;
    await expect(sign(await buildPdf(), { tsa: httpTimestampAuthority(url, 2000) })).rejects.toMatchObject({
      code: 'TSA_UNAVAILABLE',
    });
    await expect(
      sign(await buildPdf(), { tsa: httpTimestampAuthority('http://127.0.0.1:9/tsa', 2000) }),
    ).rejects.toMatchObject({ code: 'TSA_UNAVAILABLE' });
  });

  it('garbage, a reply to another request and a rejection are TSA_RESPONSE_INVALID', async () => {
    reply = () => Buffer.from('not der');
    await expect(sign(await buildPdf(), { tsa: httpTimestampAuthority(url, 2000) })).rejects.toMatchObject({
      code: 'TSA_RESPONSE_INVALID',
    });
    // A replayed response: a real token, but for another imprint and nonce.
    const { respondToTimestampRequest, timestampRequest } = await import('../../core/signing/tsa.ts');
    const tsaKey = await engine.pki.key('local-tsa');
    const stale = Buffer.from(
      await respondToTimestampRequest(
        timestampRequest(new Uint8Array(32), new Uint8Array([1, 2, 3])),
        tsaKey,
        new Date(),
      ),
    );
    reply = () => stale;
    await expect(sign(await buildPdf(), { tsa: httpTimestampAuthority(url, 2000) })).rejects.toMatchObject({
      code: 'TSA_RESPONSE_INVALID',
    });
    const rejected = Buffer.from(await respondToTimestampRequest(Buffer.from([0x30, 0x00]), tsaKey, new Date()));
    reply = () => rejected;
    await expect(sign(await buildPdf(), { tsa: httpTimestampAuthority(url, 2000) })).rejects.toMatchObject({
      code: 'TSA_RESPONSE_INVALID',
    });
  });
});

describe('certification (DocMDP)', () => {
  /** The catalog's /Perms /DocMDP signature dictionary's permission level, read back with pdf-lib. */
  async function permsLevel(pdf: Uint8Array): Promise<number | null> {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    const perms = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict);
    const signature = perms?.lookupMaybe(PDFName.of('DocMDP'), PDFDict);
    if (!signature) return null;
    expect(signature.lookup(PDFName.of('Type'), PDFName).decodeText()).toBe('Sig');
    const reference = signature.lookup(PDFName.of('Reference'), PDFArray).lookup(0, PDFDict);
    expect(reference.lookup(PDFName.of('TransformMethod'), PDFName).decodeText()).toBe('DocMDP');
    const params = reference.lookup(PDFName.of('TransformParams'), PDFDict);
    expect(params.lookup(PDFName.of('V'), PDFName).decodeText()).toBe('1.2');
    return params.lookup(PDFName.of('P'), PDFNumber).asNumber();
  }

  const seal = { bytes: sealPng(), contentType: 'image/png' as const };
  const twoElements = [
    { page: 1, rect: [400, 700, 480, 780] as [number, number, number, number], image: seal },
    { page: 1, rect: [300, 600, 500, 680] as [number, number, number, number], text: ['承認'] },
  ];

  it('certifies at P=1, 2 and 3: the catalog names the signature, pdfsig and qpdf accept the file', async () => {
    for (const level of [1, 2, 3] as const) {
      const { pdf } = await sign(await buildPdf(), { certify: level });
      expect(await permsLevel(pdf)).toBe(level);
      expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
      qpdfCheck(pdf);
      expect((await engine.verify(pdf)).signatures[0]).toMatchObject({ integrity: 'valid' });
    }
  });

  it('refuses any signature on a P=1 document with DOCUMENT_CERTIFIED_NO_CHANGES; a DSS and a document timestamp stay allowed', async () => {
    const certified = await sign(await buildPdf(), { certify: 1 });
    await expect(sign(certified.pdf, { signerName: 'Second' })).rejects.toMatchObject({
      code: 'DOCUMENT_CERTIFIED_NO_CHANGES',
    });
    const withDss = await addValidationData(certified.pdf, engine.revocation);
    const { pdf } = await addDocumentTimestamp(withDss, engine.tsa);
    expect(pdfsig(pdf).validations[0]).toBe('Signature is Valid.');
    qpdfCheck(pdf);
    expect((await engine.verify(pdf)).signatures.map((s) => s.integrity)).toEqual(['valid', 'valid']);
  });

  it('allows a plain signature but no stamp annotations on a P=2 document (DOCUMENT_CERTIFIED_NO_ANNOTATIONS); P=3 allows them', async () => {
    const p2 = await sign(await buildPdf(), { certify: 2 });
    await expect(sign(p2.pdf, { signerName: 'Second', appearances: twoElements })).rejects.toMatchObject({
      code: 'DOCUMENT_CERTIFIED_NO_ANNOTATIONS',
    });
    const second = await sign(p2.pdf, { signerName: 'Second', appearances: twoElements.slice(0, 1) });
    expect(pdfsig(second.pdf).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
    qpdfCheck(second.pdf);

    const p3 = await sign(await buildPdf(), { certify: 3 });
    const annotated = await sign(p3.pdf, { signerName: 'Second', appearances: twoElements });
    expect(pdfsig(annotated.pdf).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
    qpdfCheck(annotated.pdf);
  });

  it('certifies only as the first signature of a document', async () => {
    const signed = await sign(await buildPdf());
    await expect(sign(signed.pdf, { certify: 2 })).rejects.toThrow(/first signature/);
    const certified = await sign(await buildPdf(), { certify: 3 });
    await expect(sign(certified.pdf, { certify: 3 })).rejects.toThrow(/first signature/);
  });
});
