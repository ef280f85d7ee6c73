/*
 * The iText 5 harness (tests/validators/ItextVerify.java) judges, it does not just answer: an intact signature passes,
 * a changed byte fails, a second signature leaves the first covering only its revision, and a certificate that its CA
 * revoked is reported revoked from the CRL in the DSS.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningEngine } from '../../core/signing/engine.ts';
import { softwareKey } from '../../core/signing/keys.ts';
import { readPkcs12 } from '../../core/signing/pkcs12.ts';
import { addDocumentTimestamp, addValidationData } from '../../core/signing/pades.ts';
import type { SignPdfInput } from '../../core/signing/types.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { startTestCa } from '../peers/test-ca.ts';
import { itextVerify } from '../helpers/itext.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { engineSign } from '../helpers/signing.ts';

let app: TestApp;
let engine: SigningEngine;
let localCaPem: string;
const dir = mkdtempSync(path.join(tmpdir(), 'keiyaku-itext-test-'));

beforeAll(async () => {
  app = await startApp();
  engine = app.service.deps.signing;
  localCaPem = new X509Certificate((await engine.pki.key('local-ca')).certificate).toString();
});
afterAll(() => app.close());

const sign = (pdf: Uint8Array, extra: Partial<SignPdfInput> = {}) => engineSign(app, pdf, extra);

function file(name: string, content?: string): string {
  const target = path.join(dir, name);
  if (content !== undefined) writeFileSync(target, content);
  return target;
}

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

const der = (pemFile: string) => new Uint8Array(new X509Certificate(readFileSync(pemFile)).raw);

describe('iText 5 as an independent validator', () => {
  it('passes a B-T signature: intact, covering the whole file, with a matching timestamp imprint', async () => {
    const { pdf } = await sign(await buildPdf({ pages: 2 }));
    const report = itextVerify(pdf, localCaPem);
    expect(report.errors).toEqual([]);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({
      name: 'Signature1',
      revision: 1,
      totalRevisions: 1,
      coversWholeDocument: true,
      integrity: true,
      subFilter: 'ETSI.CAdES.detached',
      isTsp: false,
      certifyLevel: 0,
      signer: expect.stringContaining('CN=Keiyaku Business Operator Signing'),
      timestamp: { present: true, imprintValid: true, chainTrusted: true },
      chainErrors: [],
      errors: [],
    });
    // iText 5 refuses a TSA certificate whose basicConstraints and extendedKeyUsage are both critical (STACK.md);
    // the local CA marks basicConstraints critical on CA certificates only, so iText accepts the local TSA's chain.
    expect(report.signatures[0]!.timestamp!.chainErrors).toEqual([]);
  });

  it('reports an ECDSA signature, which iText 5 cannot check, as an error and never as intact', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const keyFile = file('ec.key', privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    openssl('req', '-x509', '-key', keyFile, '-out', file('ec.pem'), '-subj', '/CN=EC Signer', '-days', '30');
    const { pdf } = await sign(await buildPdf(), {
      key: softwareKey({ privateKey, certificate: der(file('ec.pem')) }),
    });
    const [signature] = itextVerify(pdf).signatures;
    expect(signature!.integrity).not.toBe(true);
    expect(signature!.errors).toEqual([expect.stringContaining('1.2.840.10045.4.3.2')]);
  });

  it('fails a signature whose first signed range has one byte changed', async () => {
    const { pdf } = await sign(await buildPdf());
    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf('/MediaBox');
    expect(at).toBeGreaterThan(0);
    tampered[at + 1] = 'm'.charCodeAt(0);
    const report = itextVerify(tampered, localCaPem);
    expect(report.signatures[0]).toMatchObject({ coversWholeDocument: true, integrity: false });
    expect(itextVerify(pdf, localCaPem).signatures[0]!.integrity).toBe(true);
  });

  it('sees two signatures: the first covers revision 1 of 2 signed revisions only', async () => {
    const first = await sign(await buildPdf());
    const second = await sign(first.pdf, { signerName: 'Second Signer' });
    const report = itextVerify(second.pdf, localCaPem);
    expect(
      report.signatures.map((s) => [s.name, s.revision, s.totalRevisions, s.coversWholeDocument, s.integrity]),
    ).toEqual([
      ['Signature1', 1, 2, false, true],
      ['Signature2', 2, 2, true, true],
    ]);
  });

  it('reports a signer certificate revoked by its CA from the CRL in the DSS', async () => {
    // A real CA (tests/peers/test-ca.ts) revokes the signer; the engine's revocation source fetches its CRL, which
    // proves the revocation, into the DSS.
    const ca = await startTestCa({ crlValiditySeconds: 3600 });
    const issued = await ca.issue('Revoked Signer', 'revoked@example.com', { ocsp: false, pin: '1234' });
    const content = await readPkcs12(issued.p12, '1234');
    const key = softwareKey({
      privateKey: content.privateKeyPkcs8,
      certificate: content.certificate,
      chain: content.chain,
    });
    await ca.revoke(issued.certDer, 'keyCompromise');
    // Signed at B-T by the engine directly (the signing module would refuse the revoked key), then the B-LT DSS added.
    const { pdf: bt } = await sign(await buildPdf(), { key });
    const lt = await addValidationData(bt, engine.revocation);
    await ca.stop();
    const roots = `${ca.rootPem}${localCaPem}`;
    const report = itextVerify(lt, roots);
    const [signature] = report.signatures;
    expect(signature).toMatchObject({
      integrity: true,
      coversWholeDocument: false,
      signer: expect.stringContaining('CN=Revoked Signer'),
      revocation: { checked: true, revoked: true, crls: 2 }, // the test CA's CRL, and the local CA's for the TSA
    });
    expect(signature!.revocation!.errors).toEqual([
      expect.stringMatching(/^Certificate CN=Revoked Signer.* failed: The certificate has been revoked\.$/),
    ]);
    // LtvVerifier starts from the last revision and wants a signature covering it: a B-LT file ends with the DSS
    // revision, so iText refuses to judge it at all (it is built for B-LTA, a document timestamp last).
    expect(report.ltv).toEqual({
      ok: false,
      error: "Certificate Unknown failed: Signature doesn't cover whole document.",
    });
    // With a document timestamp over the DSS (B-LTA) LtvVerifier walks back to the signature and reads the CRL.
    const { pdf: lta } = await addDocumentTimestamp(lt, engine.tsa);
    const ltaReport = itextVerify(lta, roots);
    expect(ltaReport.ltv).toEqual({
      ok: false,
      error: expect.stringMatching(/^Certificate CN=Revoked Signer.* failed: The certificate has been revoked\.$/),
    });
    expect(ltaReport.signatures.map((s) => [s.name, s.isTsp, s.integrity, s.ltv.ok])).toEqual([
      ['Signature1', false, true, false],
      ['DocumentTimestamp1', true, true, true],
    ]);
    expect(ltaReport.signatures[0]!.ltv.errors).toEqual([
      expect.stringMatching(/^Certificate CN=Revoked Signer.* failed: The certificate has been revoked\.$/),
    ]);
  });
});
