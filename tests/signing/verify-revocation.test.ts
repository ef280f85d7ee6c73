/*
 * What verification says of a signer whose certificate was revoked, with a real CA in the test (openssl ca), its CRL
 * served over HTTP and an `openssl ocsp` responder: revoked after the time a timestamp proves is valid with a note,
 * revoked before it (or with no timestamp at all) is invalid, and no usable revocation data is "cannot be checked"
 * naming the certificate, never valid. The signatures are made with the engine directly (the signing module would
 * refuse a revoked certificate: tests/api/revocation.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningEngine } from '../../core/signing/engine.ts';
import { softwareKey } from '../../core/signing/keys.ts';
import { addValidationData, signPdf } from '../../core/signing/pades.ts';
import { readPkcs12 } from '../../core/signing/pkcs12.ts';
import type { PadesLevel, SigningKey } from '../../core/signing/types.ts';
import { type TrustStore, verifyPdf } from '../../core/signing/verify.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { itextVerify } from '../helpers/itext.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { startTestCa, type TestCa } from '../peers/test-ca.ts';

let app: TestApp;
let engine: SigningEngine;
let ca: TestCa;
let trust: TrustStore;

beforeAll(async () => {
  app = await startApp();
  engine = app.service.deps.signing;
  ca = await startTestCa({ ocsp: true, crlValiditySeconds: 3600 });
  const own = await engine.trust();
  trust = { anchors: [...own.anchors, ca.rootDer], localCa: own.localCa };
});
afterAll(async () => {
  await ca.stop();
  await app.close();
});

async function keyFor(commonName: string, ocsp: boolean): Promise<SigningKey> {
  const issued = await ca.issue(commonName, `${commonName.replace(/\s/g, '.').toLowerCase()}@example.com`, {
    ocsp,
    pin: '1234',
  });
  const content = await readPkcs12(issued.p12, '1234');
  return softwareKey({ privateKey: content.privateKeyPkcs8, certificate: content.certificate, chain: content.chain });
}

const sign = async (key: SigningKey, level: PadesLevel = 'B-T') =>
  (
    await signPdf({
      pdf: await buildPdf(),
      key,
      level,
      signerName: 'Revocable Signer',
      claimedTime: app.clock.now(),
      tsa: engine.tsa,
    })
  ).pdf;

const verify = async (pdf: Uint8Array, fetchRevocation = true) =>
  verifyPdf(pdf, trust, {
    now: app.clock.now(),
    fetchRevocation,
    revocationTimeoutMs: 3000,
    localCaCrl: await engine.pki.crl(),
  });

describe('a signer certificate revoked', () => {
  it('after the signature timestamp (OCSP): valid, with a note', async () => {
    const key = await keyFor('Ocsp Signer', true);
    const pdf = await sign(key);
    const before = await verify(pdf);
    expect(before.signatures[0]!.revocation).toMatchObject({ status: 'good', method: 'ocsp', source: 'online' });
    expect(before.verdict).toBe('valid');
    // The CA records revocation times in whole seconds: revoke at least a second after the timestamp.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await ca.revoke(key.certificate, 'keyCompromise');
    const after = await verify(pdf);
    expect(after.signatures[0]).toMatchObject({
      status: 'valid',
      revocation: { status: 'revoked-after-signing', method: 'ocsp', reason: 'keyCompromise' },
      problems: expect.arrayContaining(['certificate-revoked-after-signing']),
    });
    expect(after.verdict).toBe('valid');
  });

  it('before the signature timestamp (CRL): invalid', async () => {
    const key = await keyFor('Crl Signer', false);
    await ca.revoke(key.certificate, 'keyCompromise');
    app.clock.advance(60_000); // the timestamp (the test clock) comes after the revocation (the CA's clock)
    const report = await verify(await sign(key));
    expect(report.signatures[0]).toMatchObject({
      status: 'invalid',
      revocation: { status: 'revoked', method: 'crl', source: 'online', reason: 'keyCompromise' },
      problems: expect.arrayContaining(['certificate-revoked']),
    });
    expect(report.verdict).toBe('invalid');
  });

  it('with no timestamp to prove the signing time: invalid', async () => {
    const key = await keyFor('Untimed Signer', false);
    const pdf = await sign(key, 'B-B');
    await ca.revoke(key.certificate, 'superseded');
    const report = await verify(pdf);
    expect(report.signatures[0]).toMatchObject({ status: 'invalid', revocation: { status: 'revoked' } });
  });

  it('the CRL embedded in the DSS proves it offline, and iText 5 says the same', async () => {
    const key = await keyFor('Embedded Signer', false);
    await ca.revoke(key.certificate, 'keyCompromise');
    app.clock.advance(60_000);
    const signed = await sign(key);
    // The DSS holds the CRL that lists the certificate: valid validation data, and proof of the revocation.
    const withDss = await addValidationData(signed, engine.revocation);
    const report = await verify(withDss, false);
    expect(report.signatures[0]).toMatchObject({
      status: 'invalid',
      revocation: { status: 'revoked', source: 'dss', method: 'crl' },
      padesLevel: 'B-LT',
    });
    const itext = itextVerify(withDss, ca.rootPem).signatures[0]!;
    expect(itext.revocation).toMatchObject({ revoked: true });
  });

  it('no reachable CRL or OCSP responder: cannot be checked, naming the certificate; never valid', async () => {
    const key = await keyFor('Unreachable Signer', true);
    const pdf = await sign(key);
    await ca.stopOcsp();
    await ca.stopCrlServer();
    const report = await verify(pdf);
    expect(report.signatures[0]).toMatchObject({
      status: 'indeterminate',
      revocation: { status: 'unknown', subject: expect.stringContaining('Unreachable Signer') },
      problems: expect.arrayContaining(['revocation-unavailable']),
    });
    expect(report.signatures[0]!.revocation.detail).toBeTruthy();
    expect(report.verdict).toBe('indeterminate');
  });
});
