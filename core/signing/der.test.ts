// The hand-written DER of CMS SignedData (der.ts, cms.ts) as pkijs and OpenSSL's own reading see it.
import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addSignatureTimestamp,
  attributeValue,
  buildSignedData,
  checkSigner,
  OID,
  parseSignedData,
  sha256,
} from './cms.ts';
import { certificateIds, oid } from './der.ts';
import { softwareKey } from './keys.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'keiyaku-der-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keyPair() {
  const keyFile = path.join(dir, 'key.pem');
  const certificateFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2'],
      ...['-keyout', keyFile, '-out', certificateFile, '-subj', '/CN=DER Test/O=Keiyaku/C=JP'],
    ],
    { stdio: 'ignore' },
  );
  const certificate = new Uint8Array(new X509Certificate(readFileSync(certificateFile)).raw);
  return { key: softwareKey({ privateKey: createPrivateKey(readFileSync(keyFile)), certificate }), certificateFile };
}

describe('DER of CMS SignedData', () => {
  const { key, certificateFile } = keyPair();

  it('encodes OIDs and reads a certificate issuer and serial as X.509 has them', () => {
    expect(Buffer.from(oid(OID.sha256)).toString('hex')).toBe('0609608648016503040201');
    const ids = certificateIds(key.certificate);
    const parsed = pkijs.Certificate.fromBER(new Uint8Array(key.certificate));
    expect(Buffer.from(ids.issuer)).toEqual(Buffer.from(parsed.issuer.toSchema().toBER(false)));
    expect(Buffer.from(ids.serial)).toEqual(Buffer.from(parsed.serialNumber.toBER(false)));
  });

  it('builds a detached SignedData that pkijs and openssl cms verify, and adds a timestamp without touching it', async () => {
    const content = Buffer.from('the signed bytes');
    const { der, signatureValue } = await buildSignedData({ key, contentType: OID.data, digest: sha256(content) });
    const { signedData } = parseSignedData(der);
    const check = checkSigner(signedData, content);
    expect(check).toMatchObject({ digestMatches: true, signatureValid: true, hasSigningCertificateV2: true });
    expect(check.hasSigningTime).toBe(false);
    expect(Buffer.from(signedData.signerInfos[0]!.signature.valueBlock.valueHexView)).toEqual(
      Buffer.from(signatureValue),
    );

    const cmsFile = path.join(dir, 'sig.der');
    const contentFile = path.join(dir, 'content.bin');
    writeFileSync(cmsFile, der);
    writeFileSync(contentFile, content);
    const verified = execFileSync(
      'openssl',
      [
        ...['cms', '-verify', '-binary', '-inform', 'DER', '-in', cmsFile, '-content', contentFile],
        ...['-CAfile', certificateFile, '-purpose', 'any', '-out', path.join(dir, 'out.bin')],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(verified).toBeDefined();

    // Any DER value stands in for a token: the attribute carries its bytes as they are.
    const token = (await buildSignedData({ key, contentType: OID.tstInfo, digest: sha256(content), content })).der;
    const stamped = addSignatureTimestamp(der, token);
    const again = parseSignedData(stamped).signedData;
    const attribute = attributeValue(again.signerInfos[0]!, OID.signatureTimeStampToken, true);
    expect(Buffer.from(attribute!.toBER(false))).toEqual(Buffer.from(token));
    expect(checkSigner(again, content)).toMatchObject({ digestMatches: true, signatureValid: true });
    // Once more: the timestamp replaces the previous one rather than adding a second.
    const twice = parseSignedData(addSignatureTimestamp(stamped, token)).signedData;
    expect(twice.signerInfos[0]!.unsignedAttrs!.attributes).toHaveLength(1);
  });
});
