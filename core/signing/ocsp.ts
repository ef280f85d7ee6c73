/*
 * An OCSP client (RFC 6960): a request naming one certificate (CertID with SHA-1 hashes, what most responders,
 * `openssl ocsp` included, index by) with a fresh nonce (RFC 8954), sent by HTTP POST to the responder the
 * certificate's Authority Information Access names; and the checks of a response: successful, a BasicOCSPResponse
 * signed by the issuer or by a responder certificate the issuer delegated id-kp-OCSPSigning to, for this CertID,
 * echoing our nonce when it echoes one, and fresh.
 */
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { arrayBuffer } from './cms.ts';
import { CLOCK_SKEW_MS, type Freshness, hashOfDigestOid, publicKeyOf, reasonName, signatureVerifies } from './crl.ts';
import type { RevocationReason } from './types.ts';

const OID = {
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ocspAccess: '1.3.6.1.5.5.7.48.1',
  caIssuers: '1.3.6.1.5.5.7.48.2',
  basicResponse: '1.3.6.1.5.5.7.48.1.1',
  nonce: '1.3.6.1.5.5.7.48.1.2',
  ocspSigning: '1.3.6.1.5.5.7.3.9',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

/** How long a response without nextUpdate counts as current ("newer information is always available"). */
export const OCSP_RECENT_MS = 5 * 60_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;

const RESPONSE_STATUS: Record<number, string> = {
  1: 'malformedRequest',
  2: 'internalError',
  3: 'tryLater',
  5: 'sigRequired',
  6: 'unauthorized',
};

/** The http(s) URLs of one access method of the certificate's Authority Information Access extension. */
export function authorityInfoAccessUrls(certificateDer: Uint8Array, method: 'ocsp' | 'caIssuers'): string[] {
  const certificate = pkijs.Certificate.fromBER(arrayBuffer(certificateDer));
  const extension = certificate.extensions?.find((e) => e.extnID === OID.authorityInfoAccess);
  const access = extension?.parsedValue as pkijs.InfoAccess | undefined;
  const wanted = method === 'ocsp' ? OID.ocspAccess : OID.caIssuers;
  return (access?.accessDescriptions ?? [])
    .filter((d) => d.accessMethod === wanted && d.accessLocation.type === 6)
    .map((d) => String(d.accessLocation.value))
    .filter((url) => /^https?:\/\//i.test(url));
}

function certId(certificate: pkijs.Certificate, issuer: pkijs.Certificate, hash: 'sha1' | 'sha256'): pkijs.CertID {
  const digest = (data: ArrayBuffer | Uint8Array) =>
    new asn1js.OctetString({ valueHex: new Uint8Array(createHash(hash).update(new Uint8Array(data)).digest()) });
  return new pkijs.CertID({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: hash === 'sha1' ? OID.sha1 : OID.sha256,
      algorithmParams: new asn1js.Null(),
    }),
    // The issuer's name as it is encoded in the certificate, and the issuer's public key BIT STRING value.
    issuerNameHash: digest(certificate.issuer.valueBeforeDecode),
    issuerKeyHash: digest(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    serialNumber: certificate.serialNumber,
  });
}

/** A DER OCSPRequest for one certificate with a nonce extension (extnValue: the DER of an OCTET STRING). */
export function ocspRequest(
  certificateDer: Uint8Array,
  issuerDer: Uint8Array,
  nonce: Uint8Array,
  hash: 'sha1' | 'sha256' = 'sha1',
): Uint8Array {
  const certificate = pkijs.Certificate.fromBER(arrayBuffer(certificateDer));
  const issuer = pkijs.Certificate.fromBER(arrayBuffer(issuerDer));
  const request = new pkijs.OCSPRequest({
    tbsRequest: new pkijs.TBSRequest({
      requestList: [new pkijs.Request({ reqCert: certId(certificate, issuer, hash) })],
      requestExtensions: [
        new pkijs.Extension({
          extnID: OID.nonce,
          extnValue: new asn1js.OctetString({ valueHex: nonce }).toBER(false),
        }),
      ],
    }),
  });
  return new Uint8Array(request.toSchema(true).toBER(false));
}

export type OcspCheck =
  | {
      usable: true;
      status: 'good' | 'revoked' | 'unknown';
      revokedAt: Date | null;
      reason: RevocationReason | null;
      thisUpdate: Date;
      nextUpdate: Date | null;
    }
  | { usable: false; problem: string };

/** The BasicOCSPResponse in an OCSPResponse or given as itself (both appear in a DSS /OCSPs array). */
function basicResponseOf(der: Uint8Array): pkijs.BasicOCSPResponse | string {
  const parsed = asn1js.fromBER(arrayBuffer(der));
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return 'unreadable';
  const first = parsed.result.valueBlock.value[0];
  if (first instanceof asn1js.Enumerated) {
    const response = new pkijs.OCSPResponse({ schema: parsed.result });
    const status = response.responseStatus.valueBlock.valueDec;
    if (status !== 0) return `responder answered ${RESPONSE_STATUS[status] ?? `status ${status}`}`;
    if (!response.responseBytes || response.responseBytes.responseType !== OID.basicResponse) {
      return 'not a basic OCSP response';
    }
    return pkijs.BasicOCSPResponse.fromBER(
      arrayBuffer(new Uint8Array(response.responseBytes.response.valueBlock.valueHexView)),
    );
  }
  return new pkijs.BasicOCSPResponse({ schema: parsed.result });
}

/** The key that signed the response: the issuer's own, or a delegated responder's the issuer certified for OCSP. */
function responseSignedByIssuer(basic: pkijs.BasicOCSPResponse, issuerDer: Uint8Array, at: Date): boolean {
  const tbs = new Uint8Array(basic.tbsResponseData.tbsView);
  const signature = new Uint8Array(basic.signature.valueBlock.valueHexView);
  if (signatureVerifies(basic.signatureAlgorithm, tbs, signature, publicKeyOf(issuerDer))) return true;
  const issuer = new X509Certificate(issuerDer);
  for (const candidate of basic.certs ?? []) {
    try {
      const responder = new X509Certificate(new Uint8Array(candidate.toSchema().toBER(false)));
      if (!responder.checkIssued(issuer) || !responder.verify(issuer.publicKey)) continue;
      if (!(responder.keyUsage ?? []).includes(OID.ocspSigning)) continue;
      if (new Date(responder.validFrom) > at || new Date(responder.validTo) < at) continue;
      // A delegated responder's own revocation is not checked (RFC 6960 §4.2.2.2.1): CAs give such certificates
      // id-pkix-ocsp-nocheck and short lives for that reason.
      if (signatureVerifies(basic.signatureAlgorithm, tbs, signature, responder.publicKey)) return true;
    } catch {
      continue;
    }
  }
  return false;
}

function nonceOf(basic: pkijs.BasicOCSPResponse): Uint8Array | null {
  const extension = basic.tbsResponseData.responseExtensions?.find((e) => e.extnID === OID.nonce);
  return extension ? new Uint8Array(extension.extnValue.valueBlock.valueHexView) : null;
}

function matchesCertificate(id: pkijs.CertID, certificate: pkijs.Certificate, issuer: pkijs.Certificate): boolean {
  const hash = hashOfDigestOid(id.hashAlgorithm.algorithmId);
  if (!hash || !id.serialNumber.isEqual(certificate.serialNumber)) return false;
  const digest = (data: ArrayBuffer | Uint8Array) => createHash(hash).update(new Uint8Array(data)).digest();
  return (
    digest(certificate.issuer.valueBeforeDecode).equals(Buffer.from(id.issuerNameHash.valueBlock.valueHexView)) &&
    digest(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).equals(
      Buffer.from(id.issuerKeyHash.valueBlock.valueHexView),
    )
  );
}

/** The status a SingleResponse's certStatus CHOICE states: [0] good, [1] revoked (RevokedInfo), [2] unknown. */
function statusOf(single: pkijs.SingleResponse): Pick<OcspCheck & { usable: true }, 'status' | 'revokedAt' | 'reason'> {
  const choice = single.certStatus as asn1js.BaseBlock & { valueBlock: { value?: asn1js.AsnType[] } };
  const tag = choice.idBlock.tagNumber;
  if (tag === 0) return { status: 'good', revokedAt: null, reason: null };
  if (tag !== 1) return { status: 'unknown', revokedAt: null, reason: null };
  const [time, reasonField] = choice.valueBlock.value ?? [];
  const revokedAt = time instanceof asn1js.GeneralizedTime ? time.toDate() : new Date(Number.NaN);
  let reason: RevocationReason = 'unspecified';
  const inner = (reasonField as asn1js.Constructed | undefined)?.valueBlock.value[0];
  if (inner instanceof asn1js.Enumerated) reason = reasonName(inner.valueBlock.valueDec);
  return { status: 'revoked', revokedAt, reason };
}

/**
 * Checks an OCSP response (DER of an OCSPResponse or a BasicOCSPResponse) about `certificateDer` from `issuerDer`:
 * successful, signed by the issuer or its delegated responder, naming this certificate, echoing `nonce` when the
 * responder echoes one (a different nonce refuses it), and fresh for `freshness` at `now`.
 */
export function checkOcspResponse(
  responseDer: Uint8Array,
  certificateDer: Uint8Array,
  issuerDer: Uint8Array,
  options: { now: Date; freshness: Freshness; nonce?: Uint8Array | null },
): OcspCheck {
  let basic: pkijs.BasicOCSPResponse | string;
  let certificate: pkijs.Certificate;
  let issuer: pkijs.Certificate;
  try {
    basic = basicResponseOf(responseDer);
    certificate = pkijs.Certificate.fromBER(arrayBuffer(certificateDer));
    issuer = pkijs.Certificate.fromBER(arrayBuffer(issuerDer));
  } catch {
    return { usable: false, problem: 'unreadable' };
  }
  if (typeof basic === 'string') return { usable: false, problem: basic };
  const single = basic.tbsResponseData.responses.find((r) => matchesCertificate(r.certID, certificate, issuer));
  if (!single) return { usable: false, problem: 'the response is about another certificate' };
  const signedAt = options.freshness === 'current' ? options.now : basic.tbsResponseData.producedAt;
  if (!responseSignedByIssuer(basic, issuerDer, signedAt)) {
    return { usable: false, problem: 'signature does not verify with the issuer or a responder it delegated' };
  }
  if (options.nonce) {
    const echoed = nonceOf(basic);
    const sent = new asn1js.OctetString({ valueHex: options.nonce }).toBER(false);
    if (echoed && !Buffer.from(echoed).equals(Buffer.from(sent))) {
      return { usable: false, problem: 'the nonce does not match the request' };
    }
  }
  const t = options.now.getTime();
  const { thisUpdate } = single;
  const nextUpdate = single.nextUpdate ?? null;
  if (thisUpdate.getTime() > t + CLOCK_SKEW_MS) return { usable: false, problem: 'thisUpdate is in the future' };
  if (options.freshness === 'current') {
    if (nextUpdate && nextUpdate.getTime() < t) {
      return { usable: false, problem: `stale (nextUpdate ${nextUpdate.toISOString()})` };
    }
    if (!nextUpdate && thisUpdate.getTime() < t - OCSP_RECENT_MS) {
      return { usable: false, problem: `stale (thisUpdate ${thisUpdate.toISOString()}, no nextUpdate)` };
    }
  }
  return { usable: true, ...statusOf(single), thisUpdate, nextUpdate };
}

export type OcspFetch = ({ response: Uint8Array } & OcspCheck) | { usable: false; problem: string };

/** Asks `url` about the certificate (HTTP POST, fresh nonce) and checks the answer as checkOcspResponse does. */
export async function queryOcsp(
  url: string,
  certificateDer: Uint8Array,
  issuerDer: Uint8Array,
  options: { now: Date; timeoutMs: number },
): Promise<OcspFetch> {
  const nonce = new Uint8Array(randomBytes(16));
  let body: Uint8Array;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' },
      body: Buffer.from(ocspRequest(certificateDer, issuerDer, nonce)),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok) return { usable: false, problem: `HTTP ${response.status}` };
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return { usable: false, problem: fetchProblem(error) };
  }
  if (body.length > MAX_RESPONSE_BYTES) return { usable: false, problem: 'response too large' };
  const checked = checkOcspResponse(body, certificateDer, issuerDer, { now: options.now, freshness: 'current', nonce });
  return checked.usable ? { ...checked, response: body } : checked;
}

/** A short reason a fetch failed: timeout, connection refused, ... */
export function fetchProblem(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? 'fetch failed';
}
