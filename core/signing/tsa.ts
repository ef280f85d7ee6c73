/*
 * RFC 3161 timestamps: the built-in TSA (the embedded default; also served over HTTP at POST /tsa as
 * application/timestamp-query) and the client that every signature uses. The client checks what it gets (status
 * granted, the imprint it sent, its nonce, the token's signature and the TSA certificate's timeStamping usage) and
 * fails the signing with TSA_UNAVAILABLE or TSA_RESPONSE_INVALID otherwise: there is no fallback to a local clock.
 */
import { randomBytes, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AppError } from '../http/errors.ts';
import { arrayBuffer, buildSignedData, certificateDer, checkSigner, OID, parseSignedData, sha256 } from './cms.ts';
import { children, type DerElement, readElement, sequence, smallInteger } from './der.ts';
import { softwareKey } from './keys.ts';
import type { ServiceKey } from './pki.ts';
import { isTimeStampingCertificate, readPlainToken, type TokenFacts } from './tsa-token.ts';
import type { SigningKey, TimestampAuthority, TimestampToken } from './types.ts';

/** The built-in TSA's policy: an OID under the UUID arc (ITU-T X.667), so it names nobody else's policy. */
export const LOCAL_TSA_POLICY = '2.25.248390614102474722061196519766917187367';
export const LOCAL_TSA_LABEL = 'local TSA (built-in, not publicly trusted)';

const HASH_LENGTH: Record<string, number> = { [OID.sha256]: 32, [OID.sha384]: 48, [OID.sha512]: 64 };

/** PKIFailureInfo bits (RFC 3161 §2.4.2). */
const FAILURE = { badAlg: 0, badRequest: 2, badDataFormat: 5, systemFailure: 25 } as const;

function rejection(bit: number, text: string): Uint8Array {
  const bits = new Uint8Array(Math.floor(bit / 8) + 1);
  bits[Math.floor(bit / 8)] = 0x80 >> (bit % 8);
  const unused = 7 - (bit % 8);
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: pkijs.PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: text })],
      failInfo: new asn1js.BitString({ valueHex: bits, unusedBits: unused }),
    }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

/**
 * Answers one TimeStampReq (DER) with a TimeStampResp (DER): a token signed by `key` at `now`, or a rejection with
 * the failure reason. Never throws on bad input.
 */
export async function respondToTimestampRequest(
  requestDer: Uint8Array,
  key: ServiceKey,
  now: Date,
): Promise<Uint8Array> {
  let request: pkijs.TimeStampReq;
  try {
    request = pkijs.TimeStampReq.fromBER(arrayBuffer(requestDer));
  } catch {
    return rejection(FAILURE.badDataFormat, 'not a TimeStampReq');
  }
  const algorithm = request.messageImprint.hashAlgorithm.algorithmId;
  const imprint = request.messageImprint.hashedMessage.valueBlock.valueHexView;
  if (request.version !== 1) return rejection(FAILURE.badRequest, 'unsupported version');
  if (!HASH_LENGTH[algorithm]) return rejection(FAILURE.badAlg, 'unsupported hash algorithm');
  if (imprint.byteLength !== HASH_LENGTH[algorithm]) return rejection(FAILURE.badDataFormat, 'imprint length');
  if (request.reqPolicy && request.reqPolicy !== LOCAL_TSA_POLICY)
    return rejection(FAILURE.badRequest, 'unknown policy');

  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x3f) | 0x40; // positive and minimal: no leading zero byte (X.690 §8.3.2)
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: LOCAL_TSA_POLICY,
    messageImprint: request.messageImprint,
    serialNumber: new asn1js.Integer({ valueHex: serial }),
    genTime: now,
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ...(request.nonce ? { nonce: request.nonce } : {}),
  });
  const content = new Uint8Array(tstInfo.toSchema().toBER(false));
  const { der } = await buildSignedData({
    key: signingKeyOf(key),
    contentType: OID.tstInfo,
    digest: sha256(content),
    content,
    // RFC 3161 §2.4.1: the certificates field carries the TSA's certificate only when the request asked for it.
    includeCertificates: request.certReq === true,
  });
  // TimeStampResp ::= SEQUENCE { status PKIStatusInfo (granted), timeStampToken ContentInfo }
  return sequence(sequence(smallInteger(pkijs.PKIStatus.granted)), der);
}

/** The service key as a SigningKey, made once per key (making one checks the key against its certificate). */
const signingKeys = new WeakMap<ServiceKey, SigningKey>();
function signingKeyOf(key: ServiceKey): SigningKey {
  let signingKey = signingKeys.get(key);
  if (!signingKey) {
    signingKey = softwareKey({ privateKey: key.privateKey, certificate: key.certificate, chain: key.chain });
    signingKeys.set(key, signingKey);
  }
  return signingKey;
}

export function timestampRequest(imprint: Uint8Array, nonce: Uint8Array): Uint8Array {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  return new Uint8Array(request.toSchema().toBER(false));
}

export interface ParsedToken {
  tstInfo: pkijs.TSTInfo;
  signedData: pkijs.SignedData;
  /** The token's signature and message digest verify and the signer certificate is a timeStamping certificate. */
  signatureValid: boolean;
  certificate: pkijs.Certificate | null;
}

/** Reads a timestamp token (ContentInfo DER) and checks its own signature; throws when it is not a token. */
export function parseTimestampToken(tokenDer: Uint8Array): ParsedToken {
  const { signedData } = parseSignedData(tokenDer);
  const eContent = signedData.encapContentInfo.eContent;
  if (signedData.encapContentInfo.eContentType !== OID.tstInfo || !eContent) throw new Error('not a TSTInfo token');
  const content = new Uint8Array(eContent.getValue());
  const tstInfo = pkijs.TSTInfo.fromBER(content);
  const check = checkSigner(signedData, content);
  const timeStamping = !!check.certificate && isTimeStampingCertificate(check.certificate);
  return {
    tstInfo,
    signedData,
    signatureValid: check.digestMatches && check.signatureValid && timeStamping,
    certificate: check.certificate,
  };
}

/** A token read the general way (parseTimestampToken), as acceptTimestampResponse checks it. */
function factsOf(token: ParsedToken): TokenFacts {
  return {
    tstInfo: token.tstInfo,
    signatureValid: token.signatureValid,
    certificate: token.certificate && certificateDer(token.certificate),
    certificates: (token.signedData.certificates ?? [])
      .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
      .map(certificateDer),
  };
}

/** acceptTimestampResponse for a response that is BER but not DER: pkijs reads it and the token is re-encoded. */
function acceptBerResponse(responseDer: Uint8Array, imprint: Uint8Array, nonce: Uint8Array): TimestampToken {
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(arrayBuffer(responseDer));
  } catch {
    throw new AppError('TSA_RESPONSE_INVALID', { detail: 'not a TimeStampResp' });
  }
  const status = response.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    throw new AppError('TSA_RESPONSE_INVALID', { detail: `status ${status}${text ? `: ${text}` : ''}` });
  }
  if (!response.timeStampToken) throw new AppError('TSA_RESPONSE_INVALID', { detail: 'no token' });
  const der = new Uint8Array(response.timeStampToken.toSchema().toBER(false));
  return acceptTimestampResponse(sequence(sequence(smallInteger(status)), der), imprint, nonce);
}

/** Checks a TimeStampResp against the request it answers and returns the token. */
export function acceptTimestampResponse(
  responseDer: Uint8Array,
  imprint: Uint8Array,
  nonce: Uint8Array,
): TimestampToken {
  // TimeStampResp ::= SEQUENCE { status PKIStatusInfo, timeStampToken ContentInfo OPTIONAL }, read as DER so the
  // token is parsed once (below) and kept as the bytes the TSA signed.
  let status: number;
  let tokenElement: DerElement | undefined;
  try {
    const outer = readElement(responseDer, 0);
    const [statusInfo, token] = children(responseDer, outer);
    const statusValue = statusInfo && children(responseDer, statusInfo)[0];
    if (outer.tag !== 0x30 || outer.end !== responseDer.length || statusValue?.tag !== 0x02) throw new Error();
    if (statusValue.end - statusValue.contentStart !== 1) throw new Error();
    status = responseDer[statusValue.contentStart]!;
    tokenElement = token;
  } catch {
    // Not plain DER (an indefinite length, say): read it the general way.
    return acceptBerResponse(responseDer, imprint, nonce);
  }
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    let text = '';
    try {
      const response = pkijs.TimeStampResp.fromBER(arrayBuffer(responseDer));
      text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    } catch {
      // the status alone says enough
    }
    throw new AppError('TSA_RESPONSE_INVALID', { detail: `status ${status}${text ? `: ${text}` : ''}` });
  }
  if (!tokenElement) throw new AppError('TSA_RESPONSE_INVALID', { detail: 'no token' });
  const der = responseDer.slice(tokenElement.start, tokenElement.end);
  let token: TokenFacts;
  try {
    token = readPlainToken(der) ?? factsOf(parseTimestampToken(der));
  } catch {
    throw new AppError('TSA_RESPONSE_INVALID', { detail: 'token is not a TSTInfo SignedData' });
  }
  const { tstInfo } = token;
  const sentImprint = Buffer.from(imprint);
  if (
    tstInfo.messageImprint.hashAlgorithm.algorithmId !== OID.sha256 ||
    !Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView).equals(sentImprint)
  ) {
    throw new AppError('TSA_RESPONSE_INVALID', { detail: 'message imprint differs from the request' });
  }
  const gotNonce = tstInfo.nonce ? Buffer.from(tstInfo.nonce.valueBlock.valueHexView) : null;
  if (!gotNonce || !stripLeadingZeros(gotNonce).equals(stripLeadingZeros(Buffer.from(nonce)))) {
    throw new AppError('TSA_RESPONSE_INVALID', { detail: 'nonce differs from the request' });
  }
  if (!token.signatureValid || !token.certificate) {
    throw new AppError('TSA_RESPONSE_INVALID', { detail: 'token signature or TSA certificate does not verify' });
  }
  const tsaCertificate = token.certificate;
  const tsaChain = token.certificates.filter((c) => !Buffer.from(c).equals(Buffer.from(tsaCertificate)));
  return {
    der,
    genTime: tstInfo.genTime,
    serialNumber: Buffer.from(tstInfo.serialNumber.valueBlock.valueHexView).toString('hex'),
    tsaCertificate,
    tsaChain,
  };
}

function stripLeadingZeros(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

function freshNonce(): Uint8Array {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x01; // positive, no leading zero byte
  return nonce;
}

/** A TSA reached over HTTP (RFC 3161 §3.4), e.g. TSA_URL in production. */
export function httpTimestampAuthority(url: string, timeoutMs: number): TimestampAuthority {
  return {
    label: url,
    local: false,
    async timestamp(imprint) {
      const nonce = freshNonce();
      let body: Uint8Array;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
          body: arrayBuffer(timestampRequest(imprint, nonce)),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        body = new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        throw new AppError('TSA_UNAVAILABLE', { detail: `${url}: ${(error as Error).message}` });
      }
      return acceptTimestampResponse(body, imprint, nonce);
    },
  };
}

/** The built-in TSA used in-process: the same request, response and checks as over HTTP, without the socket. */
export function localTimestampAuthority(key: () => Promise<ServiceKey>, now: () => Date): TimestampAuthority {
  return {
    label: LOCAL_TSA_LABEL,
    local: true,
    async timestamp(imprint) {
      const nonce = freshNonce();
      const response = await respondToTimestampRequest(timestampRequest(imprint, nonce), await key(), now());
      return acceptTimestampResponse(response, imprint, nonce);
    },
  };
}

/** The TSA certificate's notAfter: a document timestamp must be renewed before it. */
export function tokenCertificateNotAfter(token: TimestampToken): Date {
  return new Date(new X509Certificate(token.tsaCertificate).validTo);
}
