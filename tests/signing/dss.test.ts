/*
 * The DSS update (B-LT, and each B-LTA renewal) merges into whatever DSS the document has: indirect arrays and an
 * existing VRI keep their data and get the new data linked, renewals add only what is missing, and VRI keys are the
 * ISO 32000-2 §12.8.4.4 ones (SHA-1 of the /Contents string as stored), computed here from the raw file bytes.
 * pdfsig and qpdf judge every file.
 */
import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
} from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningEngine } from '../../core/signing/engine.ts';
import { softwareKey } from '../../core/signing/keys.ts';
import { readPkcs12 } from '../../core/signing/pkcs12.ts';
import { addValidationData, extendToLta } from '../../core/signing/pades.ts';
import type { SigningKey, SignPdfInput } from '../../core/signing/types.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { engineSign, independentChecks, pdfsig, tempFile } from '../helpers/signing.ts';
import { startTestCa } from '../peers/test-ca.ts';

let app: TestApp;
let engine: SigningEngine;
let operator: SigningKey;

beforeAll(async () => {
  app = await startApp();
  engine = app.service.deps.signing;
  operator = await engine.operatorKey();
});
afterAll(() => app.close());

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const DAY = 24 * 3600_000;

/** VRI keys computed from the file alone: SHA-1 of each /Contents hex string (padding included), in file order. */
function vriKeysFromBytes(pdf: Uint8Array): string[] {
  const text = Buffer.from(pdf).toString('latin1');
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\d+\s*\]/g)].map((m) => {
    const hole = text.slice(Number(m[1]) + Number(m[2]), Number(m[3]));
    const digits = hole.slice(hole.indexOf('<') + 1, hole.lastIndexOf('>'));
    return createHash('sha1').update(Buffer.from(digits, 'hex')).digest('hex').toUpperCase();
  });
}

interface DssView {
  /** Per array: the refs and their decoded bytes. */
  arrays: Record<'Certs' | 'CRLs' | 'OCSPs', { ref: PDFRef; bytes: Uint8Array }[]>;
  vri: Map<string, { Cert: Uint8Array[]; CRL: Uint8Array[]; OCSP: Uint8Array[] }>;
  doc: PDFDocument;
}

/** The DSS as a reader following the catalog sees it, whether its parts are direct or indirect. */
async function readDss(pdf: Uint8Array): Promise<DssView> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { context } = doc;
  const resolve = (value: PDFObject | undefined) => (value instanceof PDFRef ? context.lookup(value) : value);
  const dss = resolve(doc.catalog.get(PDFName.of('DSS')));
  expect(dss).toBeInstanceOf(PDFDict);
  const streamsIn = (value: PDFObject | undefined) => {
    const array = resolve(value);
    if (!(array instanceof PDFArray)) return [];
    return array.asArray().map((ref) => {
      const stream = context.lookup(ref as PDFRef);
      expect(stream).toBeInstanceOf(PDFRawStream);
      return { ref: ref as PDFRef, bytes: decodePDFRawStream(stream as PDFRawStream).decode() };
    });
  };
  const dict = dss as PDFDict;
  const vri = new Map<string, { Cert: Uint8Array[]; CRL: Uint8Array[]; OCSP: Uint8Array[] }>();
  const vriDict = resolve(dict.get(PDFName.of('VRI')));
  if (vriDict instanceof PDFDict) {
    for (const [key, value] of vriDict.entries()) {
      const entry = resolve(value) as PDFDict;
      vri.set(key.decodeText(), {
        Cert: streamsIn(entry.get(PDFName.of('Cert'))).map((s) => s.bytes),
        CRL: streamsIn(entry.get(PDFName.of('CRL'))).map((s) => s.bytes),
        OCSP: streamsIn(entry.get(PDFName.of('OCSP'))).map((s) => s.bytes),
      });
    }
  }
  return {
    arrays: {
      Certs: streamsIn(dict.get(PDFName.of('Certs'))),
      CRLs: streamsIn(dict.get(PDFName.of('CRLs'))),
      OCSPs: streamsIn(dict.get(PDFName.of('OCSPs'))),
    },
    vri,
    doc,
  };
}

/** Rewrites the document's DSS, in an incremental update, as indirect arrays and an indirect VRI of indirect entries. */
async function withIndirectDss(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { forIncrementalUpdate: true, updateMetadata: false });
  const snapshot = doc.takeSnapshot();
  const { context } = doc;
  const old = context.lookup(doc.catalog.get(PDFName.of('DSS'))!) as PDFDict;
  const dss = context.obj({});
  for (const key of ['Certs', 'CRLs']) {
    const array = old.lookup(PDFName.of(key), PDFArray);
    dss.set(PDFName.of(key), context.register(context.obj(array.asArray())));
  }
  const vri = context.obj({});
  for (const [key, entry] of old.lookup(PDFName.of('VRI'), PDFDict).entries()) vri.set(key, context.register(entry));
  dss.set(PDFName.of('VRI'), context.register(vri));
  doc.catalog.set(PDFName.of('DSS'), context.register(dss));
  snapshot.markRefForSave(context.trailerInfo.Root as PDFRef);
  const appended = await doc.saveIncremental(snapshot, { useObjectStreams: false });
  return Buffer.concat([pdf, appended]);
}

/** Every stream object of the file's latest revision, by SHA-256 of its decoded bytes. */
function streamObjectsByHash(doc: PDFDocument): Map<string, PDFRef[]> {
  const byHash = new Map<string, PDFRef[]>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    try {
      const key = sha256Hex(decodePDFRawStream(object).decode());
      byHash.set(key, [...(byHash.get(key) ?? []), ref]);
    } catch {
      // not a stream we can decode: not DSS data either
    }
  }
  return byHash;
}

function selfSignedEcKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const keyFile = tempFile('ec.key', privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
  const certFile = tempFile('ec.crt');
  execFileSync('openssl', [
    'req',
    '-x509',
    '-key',
    keyFile,
    '-out',
    certFile,
    '-subj',
    '/CN=DSS Second',
    '-days',
    '30',
  ]);
  return softwareKey({ privateKey, certificate: new Uint8Array(new X509Certificate(readFileSync(certFile)).raw) });
}

const sign = (pdf: Uint8Array, extra: Partial<SignPdfInput> = {}) =>
  engineSign(app, pdf, { level: 'B-LT', signerName: 'DSS Signer', ...extra });

/** pdfsig accepts every signature (it cannot check document timestamps: openssl ts does), qpdf the file. */
async function expectAccepted(pdf: Uint8Array, signatures: number): Promise<void> {
  const { validations, types } = pdfsig(pdf);
  expect(validations).toHaveLength(signatures);
  const cades = types.flatMap((type, i) => (type === 'ETSI.CAdES.detached' ? [validations[i]] : []));
  expect(cades.length).toBeGreaterThan(0);
  expect(cades).toEqual(Array(cades.length).fill('Signature is Valid.'));
  const localCa = new X509Certificate((await engine.pki.key('local-ca')).certificate).toString();
  expect(independentChecks(pdf, localCa)).toEqual([]);
}

// First, while the test clock still agrees with the real one that openssl and the OCSP responder use.
describe('DSS updates with OCSP', () => {
  it('puts OCSP responses in /OCSPs and in the VRI entry of the signature they answer for', async () => {
    const ca = await startTestCa({ name: 'DSS OCSP CA', ocsp: true, now: () => app.clock.now() });
    try {
      const issued = await ca.issue('OCSP Signer', 'ocsp-signer@example.com', { ocsp: true, pin: '1234' });
      const content = await readPkcs12(issued.p12, '1234');
      const key = softwareKey({
        privateKey: content.privateKeyPkcs8,
        certificate: content.certificate,
        chain: content.chain,
      });
      const { pdf } = await sign(await buildPdf(), { key });
      await expectAccepted(pdf, 1);
      const dss = await readDss(pdf);
      expect(dss.arrays.OCSPs.length).toBeGreaterThan(0);
      const [vriKey] = vriKeysFromBytes(pdf);
      const entry = dss.vri.get(vriKey!)!;
      expect(entry.OCSP.map(hex)).toEqual(expect.arrayContaining(dss.arrays.OCSPs.map((s) => hex(s.bytes))));
      expect(entry.Cert.map(hex)).toEqual(expect.arrayContaining([hex(issued.certDer), hex(ca.rootDer)]));
    } finally {
      await ca.stop();
    }
  });
});

describe('DSS updates', () => {
  it('links new certificates and CRLs into a DSS with indirect arrays and keeps its existing VRI entry', async () => {
    const lt = await sign(await buildPdf());
    const indirect = await withIndirectDss(lt.pdf);
    await expectAccepted(indirect, 1);
    const before = await readDss(indirect);
    expect([...before.vri.keys()]).toEqual([vriKeysFromBytes(indirect)[0]]);

    const second = selfSignedEcKey();
    const signed = await sign(indirect, { key: second, level: 'B-T', signerName: 'Second' });
    app.clock.advance(DAY); // the local CA signs a CRL with a new thisUpdate: new data for the DSS
    const updated = await addValidationData(signed.pdf, engine.revocation);
    await expectAccepted(updated, 2);

    const dss = await readDss(updated);
    const certificates = dss.arrays.Certs.map((s) => hex(s.bytes));
    expect(certificates).toContain(hex(second.certificate));
    expect(certificates).toEqual(expect.arrayContaining(before.arrays.Certs.map((s) => hex(s.bytes))));
    expect(new Set(certificates).size).toBe(certificates.length);
    expect(dss.arrays.CRLs).toHaveLength(before.arrays.CRLs.length + 1);

    // Every stream the update wrote is reachable from the catalog's DSS.
    const linked = new Set([...dss.arrays.Certs, ...dss.arrays.CRLs, ...dss.arrays.OCSPs].map((s) => s.ref));
    const firstNew = (await PDFDocument.load(signed.pdf, { updateMetadata: false })).context.largestObjectNumber;
    const written = dss.doc.context
      .enumerateIndirectObjects()
      .filter(([ref, object]) => ref.objectNumber > firstNew && object instanceof PDFRawStream);
    expect(written.length).toBeGreaterThan(0);
    for (const [ref] of written) expect(linked.has(ref)).toBe(true);

    // The old entry stays; the new signature's entry holds its own chains' data, not the first signer's.
    const keys = vriKeysFromBytes(updated);
    expect([...dss.vri.keys()].sort()).toEqual([...keys].sort());
    const entry = dss.vri.get(keys[1]!)!;
    expect(entry.Cert.map(hex)).toContain(hex(second.certificate));
    expect(entry.Cert.map(hex)).not.toContain(hex(operator.certificate));

    const report = await engine.verify(updated);
    expect(report.signatures.map((s) => s.integrity)).toEqual(['valid', 'valid']);
  });

  it('two renewals leave exactly one stream per distinct certificate and CRL', async () => {
    const lta = await sign(await buildPdf(), { level: 'B-LTA' });
    app.clock.advance(DAY);
    const first = await extendToLta(lta.pdf, engine.tsa, engine.revocation);
    app.clock.advance(DAY);
    const second = await extendToLta(first.pdf, engine.tsa, engine.revocation);
    await expectAccepted(second.pdf, 4);

    const dss = await readDss(second.pdf);
    const distinct = (items: { bytes: Uint8Array }[]) => new Set(items.map((s) => sha256Hex(s.bytes)));
    const certificates = distinct(dss.arrays.Certs);
    // The operator's chain (operator, local CA) and the TSA's certificate.
    expect(certificates.size).toBe(3);
    expect(dss.arrays.Certs).toHaveLength(3);
    // One CRL per DSS update, each fresher than the one before.
    expect(distinct(dss.arrays.CRLs).size).toBe(3);
    expect(dss.arrays.CRLs).toHaveLength(3);
    const objects = streamObjectsByHash(dss.doc);
    for (const key of [...certificates, ...distinct(dss.arrays.CRLs)]) expect(objects.get(key)).toHaveLength(1);

    // A VRI entry for the signature and for every document timestamp but the last (it came after the DSS).
    const keys = vriKeysFromBytes(second.pdf);
    expect(keys).toHaveLength(4);
    expect([...dss.vri.keys()].sort()).toEqual(keys.slice(0, 3).sort());
    const report = await engine.verify(second.pdf);
    expect(report.signatures.map((s) => [s.kind, s.integrity])).toEqual([
      ['signature', 'valid'],
      ['document-timestamp', 'valid'],
      ['document-timestamp', 'valid'],
      ['document-timestamp', 'valid'],
    ]);
  });

  it('keys the VRI by SHA-1 of the whole /Contents string as stored, zero padding included', async () => {
    const { pdf } = await sign(await buildPdf());
    const [key] = vriKeysFromBytes(pdf);
    const text = Buffer.from(pdf).toString('latin1');
    // The padded string, not the DER alone: the key differs from SHA-1 of the trimmed signature.
    const digits = /\/Contents\s*<([0-9A-F]+)>/.exec(text)![1]!;
    expect(digits.endsWith('0000')).toBe(true);
    expect(key).toBe(createHash('sha1').update(Buffer.from(digits, 'hex')).digest('hex').toUpperCase());
    const dss = await readDss(pdf);
    expect([...dss.vri.keys()]).toEqual([key]);
    expect(dss.vri.get(key!)!.CRL).toHaveLength(1);
    await expectAccepted(pdf, 1);
  });
});
