/*
 * CRLs, OCSP and the revocation source against a real CA (openssl ca, its CRLs, an `openssl ocsp` responder):
 * what is revoked reads as revoked with its reason, and data that is not the issuer's, not fresh, or not an answer
 * to our request is never used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCa, type TestCa } from '../../tests/peers/test-ca.ts';
import { checkCrl } from './crl.ts';
import { checkOcspResponse, ocspRequest } from './ocsp.ts';
import { assertKeyNotRevoked, revocationSource, statusFromEvidence } from './revocation.ts';
import * as pkijs from 'pkijs';

let ca: TestCa;
let impostor: TestCa; // same name as `ca`, another key
beforeAll(async () => {
  ca = await startTestCa({ ocsp: true });
  impostor = await startTestCa();
});
afterAll(async () => {
  await ca?.stop();
  await impostor?.stop();
});

const source = (localCa: TestCa = impostor) =>
  revocationSource({
    localCa: async () => ({ certificate: localCa.rootDer, crl: await localCa.crl() }),
    timeoutMs: 3000,
    now: () => new Date(),
  });

async function askResponder(certDer: Uint8Array, nonce: Uint8Array): Promise<Uint8Array> {
  const response = await fetch(ca.ocspUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/ocsp-request' },
    body: Buffer.from(ocspRequest(certDer, ca.rootDer, nonce)),
  });
  return new Uint8Array(await response.arrayBuffer());
}

describe('CRLs', () => {
  it('finds a revoked certificate with its reason; a CRL signed by another key with the same name is not used', async () => {
    const good = await ca.issue('Good', 'good@example.com', { ocsp: false, pin: '1' });
    const bad = await ca.issue('Bad', 'bad@example.com', { ocsp: false, pin: '1' });
    await ca.revoke(bad.certDer, 'keyCompromise');
    const crl = await ca.crl();
    const now = new Date();
    expect(checkCrl(crl, good.certDer, ca.rootDer, now, 'current')).toMatchObject({ usable: true, entry: null });
    expect(checkCrl(crl, bad.certDer, ca.rootDer, now, 'current')).toMatchObject({
      usable: true,
      entry: { reason: 'keyCompromise', revokedAt: expect.any(Date) },
    });
    const foreign = await impostor.crl();
    expect(checkCrl(foreign, good.certDer, ca.rootDer, now, 'current')).toMatchObject({ usable: false });
    // Re-sign the genuine CRL's content with the impostor: same issuer name, same entries, another key.
    const tampered = pkijs.CertificateRevocationList.fromBER(crl.slice().buffer);
    tampered.signatureValue = pkijs.CertificateRevocationList.fromBER(foreign.slice().buffer).signatureValue;
    const tamperedDer = new Uint8Array(tampered.toSchema().toBER(false));
    expect(checkCrl(tamperedDer, bad.certDer, ca.rootDer, now, 'current')).toEqual({
      usable: false,
      problem: 'signature does not verify',
    });
    const fromEvidence = await statusFromEvidence(
      bad.certDer,
      ca.rootDer,
      { crls: [foreign, tamperedDer], ocspResponses: [] },
      now,
    );
    expect(fromEvidence.status).toBe('unknown');
  });

  it('refuses a stale CRL for a status now, and accepts it as evidence of the past', async () => {
    const issued = await ca.issue('Stale', 'stale@example.com', { ocsp: false, pin: '1' });
    const crl = await ca.crl(); // nextUpdate two minutes from now
    const later = new Date(Date.now() + 60 * 60_000);
    expect(checkCrl(crl, issued.certDer, ca.rootDer, later, 'current')).toMatchObject({
      usable: false,
      problem: expect.stringContaining('stale'),
    });
    expect(checkCrl(crl, issued.certDer, ca.rootDer, later, 'evidence')).toMatchObject({ usable: true });
  });
});

describe('OCSP', () => {
  it('accepts the answer to our nonce and refuses one echoing another nonce', async () => {
    const issued = await ca.issue('Nonce', 'nonce@example.com', { ocsp: true, pin: '1' });
    const nonce = new Uint8Array(16).fill(7);
    const response = await askResponder(issued.certDer, nonce);
    const now = new Date();
    expect(checkOcspResponse(response, issued.certDer, ca.rootDer, { now, freshness: 'current', nonce })).toMatchObject(
      { usable: true, status: 'good' },
    );
    const other = new Uint8Array(16).fill(8);
    expect(
      checkOcspResponse(response, issued.certDer, ca.rootDer, { now, freshness: 'current', nonce: other }),
    ).toEqual({ usable: false, problem: 'the nonce does not match the request' });
    const someoneElse = await ca.issue('Else', 'else@example.com', { ocsp: true, pin: '1' });
    expect(checkOcspResponse(response, someoneElse.certDer, ca.rootDer, { now, freshness: 'current' })).toMatchObject({
      usable: false,
    });
    // Not the issuer's responder: the impostor root did not delegate to it.
    expect(checkOcspResponse(response, issued.certDer, impostor.rootDer, { now, freshness: 'current' })).toMatchObject({
      usable: false,
    });
  });

  it('reads a revocation from the delegated responder, also as evidence (OCSPResponse and BasicOCSPResponse)', async () => {
    const issued = await ca.issue('Revoked', 'revoked@example.com', { ocsp: true, pin: '1' });
    await ca.revoke(issued.certDer, 'cessationOfOperation');
    const [status] = await source().check([issued.certDer, ca.rootDer]);
    expect(status).toMatchObject({ status: 'revoked', method: 'ocsp', reason: 'cessationOfOperation' });
    const response = status!.ocspResponse!;
    const parsed = pkijs.OCSPResponse.fromBER(response.slice().buffer);
    const basic = new Uint8Array(parsed.responseBytes!.response.valueBlock.valueHexView);
    for (const evidence of [response, basic]) {
      const found = await statusFromEvidence(
        issued.certDer,
        ca.rootDer,
        { crls: [], ocspResponses: [evidence] },
        new Date(),
      );
      expect(found).toMatchObject({ status: 'revoked', reason: 'cessationOfOperation' });
    }
  });
});

describe('the revocation source', () => {
  it('says why a status is unknown, and refuses to sign with a revoked or unknown chain', async () => {
    const bare = await ca.issue('Bare', 'bare@example.com', { ocsp: false, pin: '1', bare: true });
    const [unknown, root] = await source().check([bare.certDer, ca.rootDer]);
    expect(unknown).toMatchObject({ status: 'unknown', detail: 'names no CRL distribution point or OCSP responder' });
    expect(root).toMatchObject({ status: 'not-applicable' });
    await expect(assertKeyNotRevoked([bare.certDer, ca.rootDer], source(), 'user')).rejects.toMatchObject({
      code: 'REVOCATION_UNAVAILABLE',
      detail: expect.stringContaining('CN=Bare'),
    });
    await expect(source().collect([[bare.certDer, ca.rootDer]])).rejects.toMatchObject({
      code: 'REVOCATION_UNAVAILABLE',
    });
    const orphan = await source().check([bare.certDer]);
    expect(orphan[0]).toMatchObject({ status: 'unknown', detail: expect.stringContaining('issuer certificate') });

    const revoked = await ca.issue('Gone', 'gone@example.com', { ocsp: false, pin: '1' });
    await ca.revoke(revoked.certDer, 'keyCompromise');
    await expect(assertKeyNotRevoked([revoked.certDer, ca.rootDer], source(), 'user')).rejects.toMatchObject({
      code: 'E_CERTIFICATE_REVOKED',
    });
    await expect(assertKeyNotRevoked([revoked.certDer, ca.rootDer], source(), 'service')).rejects.toMatchObject({
      code: 'SIGNING_KEY_REVOKED',
    });
    // A revocation is data for a DSS, not an error.
    const data = await source().collect([[revoked.certDer, ca.rootDer]]);
    expect([data.certificates.length, data.crls.length]).toEqual([2, 1]);
  });

  it('checks what the local CA issued against its own CRL, without HTTP', async () => {
    const issued = await ca.issue('Local', 'local@example.com', { ocsp: true, pin: '1' });
    const served = ca.crlRequests();
    const [status] = await source(ca).check([issued.certDer]);
    expect(status).toMatchObject({ status: 'good', method: 'crl', detail: 'local CA' });
    expect(ca.crlRequests()).toBe(served);
  });
});
