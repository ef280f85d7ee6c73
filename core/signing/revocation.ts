/*
 * Revocation status of certificates, now (before anything is signed with them, and for a B-LT DSS) and from
 * evidence (CRLs and OCSP responses embedded in a PDF). Now: the local CA's own CRL in process for what it issued;
 * otherwise OCSP first where the certificate names a responder, then its CRL distribution points. Nothing soft-fails:
 * when no usable data can be had the status is unknown with the reason, and signing refuses with
 * REVOCATION_UNAVAILABLE; a DSS that silently lacked data would claim a level the document does not have.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '../http/errors.ts';
import { sha256 } from './cms.ts';
import { checkCrl, type CrlCheck } from './crl.ts';
import { authorityInfoAccessUrls, checkOcspResponse, fetchProblem, type OcspCheck, queryOcsp } from './ocsp.ts';
import type { CertificateStatus, RevocationSource, ValidationData } from './types.ts';
import { x509Lib } from './x509-lib.ts';

const HOUR = 60 * 60 * 1000;
/** Cache a response no longer than this even when its nextUpdate is later, so a revocation shows within an hour. */
const CACHE_CAP_MS = HOUR;
/** An OCSP response without nextUpdate is cached this long. */
const OCSP_NO_NEXT_UPDATE_MS = 5 * 60_000;
const MAX_CRL_BYTES = 20 * 1024 * 1024;

const oneLine = (name: string) => name.replace(/\n/g, ', ');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** The certificate and its subject on one line, for a status. */
function described(der: Uint8Array): { certificate: Uint8Array; subject: string; x509: X509Certificate } {
  const x509 = new X509Certificate(der);
  return { certificate: der, subject: oneLine(x509.subject), x509 };
}

function selfSigned(x509: X509Certificate): boolean {
  return x509.subject === x509.issuer && x509.checkIssued(x509) && x509.verify(x509.publicKey);
}

/** The certificate among `candidates` that issued `x509` (name and signature), DER. */
function issuerAmong(x509: X509Certificate, candidates: readonly Uint8Array[]): Uint8Array | null {
  for (const der of candidates) {
    try {
      const candidate = new X509Certificate(der);
      if (candidate.raw.equals(x509.raw)) continue;
      if (x509.checkIssued(candidate) && x509.verify(candidate.publicKey)) return der;
    } catch {
      continue;
    }
  }
  return null;
}

/** The http(s) URLs of the certificate's CRL distribution points. */
async function crlUrls(certificate: Uint8Array): Promise<string[]> {
  const x509 = await x509Lib();
  const extension = new x509.X509Certificate(new Uint8Array(certificate)).getExtension(
    x509.CRLDistributionPointsExtension,
  );
  const urls: string[] = [];
  for (const point of extension?.distributionPoints ?? []) {
    for (const name of point.distributionPoint?.fullName ?? []) {
      const uri = name.uniformResourceIdentifier;
      if (uri && /^https?:\/\//i.test(uri)) urls.push(uri);
    }
  }
  return urls;
}

/** DER of a CRL or certificate served as DER or PEM. */
function derOf(body: Uint8Array): Uint8Array {
  const text = Buffer.from(body.subarray(0, 64)).toString('latin1');
  if (!text.includes('-----BEGIN')) return body;
  const pem = Buffer.from(body).toString('latin1');
  const base64 = /-----BEGIN [^-]+-----([\s\S]+?)-----END/.exec(pem)?.[1] ?? '';
  return new Uint8Array(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
}

async function httpGet(url: string, timeoutMs: number, maxBytes: number): Promise<Uint8Array | string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return `HTTP ${response.status}`;
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.length > maxBytes) return 'too large';
    return derOf(body);
  } catch (error) {
    return fetchProblem(error);
  }
}

function status(
  subject: { certificate: Uint8Array; subject: string },
  fields: Partial<CertificateStatus> & Pick<CertificateStatus, 'status'>,
): CertificateStatus {
  return {
    certificate: subject.certificate,
    subject: subject.subject,
    method: null,
    revokedAt: null,
    reason: null,
    thisUpdate: null,
    detail: null,
    ...fields,
  };
}

function fromCrl(
  subject: { certificate: Uint8Array; subject: string },
  check: CrlCheck & { usable: true },
  crl: Uint8Array,
  source: string,
): CertificateStatus {
  return status(subject, {
    status: check.entry ? 'revoked' : 'good',
    method: 'crl',
    revokedAt: check.entry?.revokedAt ?? null,
    reason: check.entry?.reason ?? null,
    thisUpdate: check.thisUpdate,
    detail: source,
    crl,
  });
}

function fromOcsp(
  subject: { certificate: Uint8Array; subject: string },
  check: OcspCheck & { usable: true },
  response: Uint8Array,
  source: string,
): CertificateStatus {
  return status(subject, {
    status: check.status,
    method: 'ocsp',
    revokedAt: check.revokedAt,
    reason: check.reason,
    thisUpdate: check.thisUpdate,
    detail: source,
    ocspResponse: response,
  });
}

interface CacheEntry {
  until: number;
  bytes: Uint8Array;
}

/**
 * A RevocationSource fetching over HTTP, with the local CA's certificate and current CRL from `localCa` (plain
 * functions, so a worker thread without the database can build one too). Responses are cached until their
 * nextUpdate, at most an hour.
 */
export function revocationSource(options: {
  localCa: () => Promise<{ certificate: Uint8Array; crl: Uint8Array }>;
  timeoutMs: number;
  now: () => Date;
}): RevocationSource {
  const cache = new Map<string, CacheEntry>();
  const pending = new Map<string, Promise<Uint8Array | string>>();

  const cached = (key: string): Uint8Array | null => {
    const entry = cache.get(key);
    if (!entry) return null;
    if (entry.until > options.now().getTime()) return entry.bytes;
    cache.delete(key);
    return null;
  };
  const remember = (key: string, bytes: Uint8Array, nextUpdate: Date | null, fallbackMs: number) => {
    const now = options.now().getTime();
    const until = Math.min(nextUpdate?.getTime() ?? now + fallbackMs, now + CACHE_CAP_MS);
    if (until > now) cache.set(key, { until, bytes });
  };
  /** One fetch per key at a time: the chains of one DSS often share a CRL. */
  const once = (key: string, fetcher: () => Promise<Uint8Array | string>) => {
    let running = pending.get(key);
    if (!running) {
      running = fetcher().finally(() => pending.delete(key));
      pending.set(key, running);
    }
    return running;
  };

  async function viaOcsp(
    subject: { certificate: Uint8Array; subject: string },
    issuer: Uint8Array,
    url: string,
  ): Promise<CertificateStatus | string> {
    const key = `ocsp ${url} ${hex(sha256(subject.certificate))}`;
    const now = options.now();
    const hit = cached(key);
    if (hit) {
      const check = checkOcspResponse(hit, subject.certificate, issuer, { now, freshness: 'current' });
      if (check.usable && check.status !== 'unknown') return fromOcsp(subject, check, hit, `OCSP ${url}`);
      cache.delete(key);
    }
    const fetched = await queryOcsp(url, subject.certificate, issuer, { now, timeoutMs: options.timeoutMs });
    if (!fetched.usable) return `OCSP ${url}: ${fetched.problem}`;
    if (!('response' in fetched)) return `OCSP ${url}: unusable`;
    if (fetched.status === 'unknown') return `OCSP ${url}: the responder does not know the certificate`;
    remember(key, fetched.response, fetched.nextUpdate, OCSP_NO_NEXT_UPDATE_MS);
    return fromOcsp(subject, fetched, fetched.response, `OCSP ${url}`);
  }

  async function viaCrl(
    subject: { certificate: Uint8Array; subject: string },
    issuer: Uint8Array,
    url: string,
  ): Promise<CertificateStatus | string> {
    const key = `crl ${url}`;
    const now = options.now();
    const hit = cached(key);
    if (hit) {
      const check = checkCrl(hit, subject.certificate, issuer, now, 'current');
      if (check.usable) return fromCrl(subject, check, hit, `CRL ${url}`);
    }
    const fetched = await once(key, () => httpGet(url, options.timeoutMs, MAX_CRL_BYTES));
    if (typeof fetched === 'string') return `CRL ${url}: ${fetched}`;
    const check = checkCrl(fetched, subject.certificate, issuer, now, 'current');
    if (!check.usable) return `CRL ${url}: ${check.problem}`;
    remember(key, fetched, check.nextUpdate, CACHE_CAP_MS);
    return fromCrl(subject, check, fetched, `CRL ${url}`);
  }

  /** The issuer named by the certificate's AIA caIssuers, when the chain lacks it. */
  async function issuerFromAia(x509: X509Certificate): Promise<Uint8Array | null> {
    for (const url of authorityInfoAccessUrls(new Uint8Array(x509.raw), 'caIssuers')) {
      const key = `issuer ${url}`;
      const bytes = cached(key) ?? (await once(key, () => httpGet(url, options.timeoutMs, 64 * 1024)));
      if (typeof bytes === 'string') continue;
      const issuer = issuerAmong(x509, [bytes]);
      if (issuer) {
        remember(key, issuer, null, CACHE_CAP_MS);
        return issuer;
      }
    }
    return null;
  }

  async function statusOf(
    der: Uint8Array,
    chain: readonly Uint8Array[],
    localCa: () => Promise<{ certificate: Uint8Array; crl: Uint8Array }>,
  ): Promise<CertificateStatus> {
    const subject = described(der);
    if (selfSigned(subject.x509)) return status(subject, { status: 'not-applicable' });
    const local = await localCa();
    const issuer = issuerAmong(subject.x509, [...chain, local.certificate]) ?? (await issuerFromAia(subject.x509));
    if (!issuer) {
      return status(subject, {
        status: 'unknown',
        detail: 'its issuer certificate is not in the chain, so no CRL or OCSP response can be checked',
      });
    }
    if (sameBytes(issuer, local.certificate)) {
      const check = checkCrl(local.crl, der, issuer, options.now(), 'current');
      return check.usable
        ? fromCrl(subject, check, local.crl, 'local CA')
        : status(subject, { status: 'unknown', detail: `local CA CRL: ${check.problem}` });
    }
    const problems: string[] = [];
    const ocsp = authorityInfoAccessUrls(der, 'ocsp');
    const crls = await crlUrls(der);
    for (const url of ocsp) {
      const result = await viaOcsp(subject, issuer, url);
      if (typeof result !== 'string') return result;
      problems.push(result);
    }
    for (const url of crls) {
      const result = await viaCrl(subject, issuer, url);
      if (typeof result !== 'string') return result;
      problems.push(result);
    }
    if (ocsp.length === 0 && crls.length === 0) problems.push('names no CRL distribution point or OCSP responder');
    return status(subject, { status: 'unknown', detail: problems.join('; ') });
  }

  /** localCa, asked at most once per call and only when a certificate is not self-signed. */
  const lazyLocalCa = () => {
    let value: Promise<{ certificate: Uint8Array; crl: Uint8Array }> | null = null;
    return () => (value ??= options.localCa());
  };

  return {
    async check(chain) {
      const localCa = lazyLocalCa();
      const statuses: CertificateStatus[] = [];
      for (const der of chain) statuses.push(await statusOf(der, chain, localCa));
      return statuses;
    },

    async collect(chains): Promise<ValidationData> {
      const localCa = lazyLocalCa();
      const certificates = new Map<string, Uint8Array>();
      const crls = new Map<string, Uint8Array>();
      const ocspResponses = new Map<string, Uint8Array>();
      for (const chain of chains) {
        for (const der of chain) {
          const key = hex(sha256(der));
          if (certificates.has(key)) continue;
          certificates.set(key, der);
          const found = await statusOf(der, chain, localCa);
          if (found.status === 'not-applicable') continue;
          if (found.status === 'unknown') {
            throw new AppError('REVOCATION_UNAVAILABLE', { detail: `${found.subject}: ${found.detail}` });
          }
          if (found.crl) crls.set(hex(sha256(found.crl)), found.crl);
          if (found.ocspResponse) ocspResponses.set(hex(sha256(found.ocspResponse)), found.ocspResponse);
        }
      }
      return {
        certificates: [...certificates.values()],
        crls: [...crls.values()],
        ocspResponses: [...ocspResponses.values()],
      };
    },
  };
}

/**
 * The status of `certificate` (issued by `issuer`) from evidence alone, without the network: the CRLs of that
 * issuer and the OCSP responses about that certificate which verify; revoked wins, then good, else unknown.
 * "Fresh" here only means a thisUpdate not in the future: the data was fixed when the document was signed, and the
 * verifier compares the revocation time with the signing time itself.
 */
export async function statusFromEvidence(
  certificate: Uint8Array,
  issuer: Uint8Array,
  evidence: { crls: readonly Uint8Array[]; ocspResponses: readonly Uint8Array[] },
  now: Date,
): Promise<CertificateStatus> {
  const subject = described(certificate);
  if (sameBytes(certificate, issuer) || selfSigned(subject.x509)) return status(subject, { status: 'not-applicable' });
  const found: CertificateStatus[] = [];
  const problems = new Set<string>();
  for (const crl of evidence.crls) {
    const check = checkCrl(crl, certificate, issuer, now, 'evidence');
    if (check.usable) found.push(fromCrl(subject, check, crl, 'CRL'));
    else if (check.problem !== 'issued by another CA') problems.add(`CRL: ${check.problem}`);
  }
  for (const response of evidence.ocspResponses) {
    const check = checkOcspResponse(response, certificate, issuer, { now, freshness: 'evidence' });
    if (check.usable && check.status !== 'unknown') found.push(fromOcsp(subject, check, response, 'OCSP'));
    else if (check.usable) problems.add('OCSP: the responder did not know the certificate');
    else if (check.problem !== 'the response is about another certificate') problems.add(`OCSP: ${check.problem}`);
  }
  const revoked = found.filter((s) => s.status === 'revoked');
  const pick = (list: CertificateStatus[]) =>
    list.reduce((a, b) => ((b.thisUpdate?.getTime() ?? 0) > (a.thisUpdate?.getTime() ?? 0) ? b : a));
  if (revoked.length > 0) {
    // The earliest revocation time is what the issuer asserts most strongly.
    return revoked.reduce((a, b) => ((b.revokedAt?.getTime() ?? 0) < (a.revokedAt?.getTime() ?? 0) ? b : a));
  }
  const good = found.filter((s) => s.status === 'good');
  if (good.length > 0) return pick(good);
  return status(subject, {
    status: 'unknown',
    detail:
      problems.size > 0
        ? [...problems].join('; ')
        : 'no CRL of its issuer and no OCSP response about it in the validation data',
  });
}

/** The refusal a chain's statuses call for (revoked first, then unknown), with the revoked status, or null. */
export function revocationRefusal(
  statuses: readonly CertificateStatus[],
  kind: 'user' | 'service',
): { error: AppError; revoked: CertificateStatus | null } | null {
  const revoked = statuses.find((s) => s.status === 'revoked');
  if (revoked) {
    const when = revoked.revokedAt ? ` on ${revoked.revokedAt.toISOString()}` : '';
    const detail = `${revoked.subject}: revoked${when} (${revoked.reason ?? 'unspecified'}), per ${revoked.detail}`;
    return {
      error: new AppError(kind === 'user' ? 'E_CERTIFICATE_REVOKED' : 'SIGNING_KEY_REVOKED', { detail }),
      revoked,
    };
  }
  const unknown = statuses.find((s) => s.status === 'unknown');
  if (unknown) {
    return {
      error: new AppError('REVOCATION_UNAVAILABLE', { detail: `${unknown.subject}: ${unknown.detail}` }),
      revoked: null,
    };
  }
  return null;
}

/**
 * Checks a signing key's chain now and throws AppError('E_CERTIFICATE_REVOKED') (a user's certificate) or
 * AppError('SIGNING_KEY_REVOKED') (the service's) when one is revoked, AppError('REVOCATION_UNAVAILABLE') naming the
 * certificate and why when one's status is unknown; returns the statuses otherwise.
 */
export async function assertKeyNotRevoked(
  chain: readonly Uint8Array[],
  source: RevocationSource,
  kind: 'user' | 'service',
): Promise<CertificateStatus[]> {
  const statuses = await source.check(chain);
  const refusal = revocationRefusal(statuses, kind);
  if (refusal) throw refusal.error;
  return statuses;
}
