/*
 * The embedded default's own PKI: a local root CA that issues the built-in TSA's certificate and the business-operator
 * key, and publishes a CRL for them. Keys are created once, sealed under the master key and kept in service_keys
 * (the newest row of a purpose is the one in use), so every instance sharing the database signs with the same keys.
 * As RFC 5280 asks, what the CA issues names where its CRL (CRL distribution point) and its certificate (AIA
 * caIssuers) are published, and its CRL carries a CRL Number and an Authority Key Identifier.
 * Nothing here is publicly trusted: reports label it "local".
 */
import { createPrivateKey, type KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import type { Knex } from 'knex';
import { arrayBuffer } from './cms.ts';
import type { Secrets } from './secrets.ts';
import { x509Lib } from './x509-lib.ts';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export type ServiceKeyPurpose = 'local-ca' | 'local-tsa' | 'operator';

/** A key the service holds, with its certificate and chain (issuer up to the root), all DER. */
export interface ServiceKey {
  purpose: ServiceKeyPurpose;
  privateKey: KeyObject;
  certificate: Uint8Array;
  chain: Uint8Array[];
  notAfter: Date;
}

const VALIDITY_DAYS: Record<ServiceKeyPurpose, number> = {
  'local-ca': 20 * 365,
  'local-tsa': 10 * 365,
  operator: 3 * 365,
};
const SUBJECT: Record<ServiceKeyPurpose, string> = {
  'local-ca': 'CN=Keiyaku Local CA (not publicly trusted), O=Keiyaku, C=JP',
  'local-tsa': 'CN=Keiyaku Local TSA (not publicly trusted), O=Keiyaku, C=JP',
  operator: 'CN=Keiyaku Business Operator Signing, O=Keiyaku, C=JP',
};

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x3f) | 0x40; // positive and minimal: no leading zero byte (X.690 §8.3.2)
  return Buffer.from(bytes).toString('hex');
}

async function toCryptoKey(privateKey: KeyObject): Promise<CryptoKey> {
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  return webcrypto.subtle.importKey('pkcs8', pkcs8, RSA, false, ['sign']) as Promise<CryptoKey>;
}

/** Where the local CA publishes its CRL and its certificate (core/signing/http.ts serves both). */
export function localCaUrls(publicUrl: string): { crl: string; certificate: string } {
  return { crl: `${publicUrl}/pki/local-ca.crl`, certificate: `${publicUrl}/pki/local-ca.crt` };
}

/** Issues a certificate for `purpose`; the CA signs itself. */
async function issue(
  purpose: ServiceKeyPurpose,
  now: Date,
  issuer: ServiceKey | null,
  publicUrl: string,
): Promise<{ privateKey: KeyObject; certificate: Uint8Array }> {
  const x509 = await x509Lib();
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const isCa = purpose === 'local-ca';
  const extensions: X509.Extension[] = [
    // Critical on the CA (RFC 5280 §4.2.1.9 requires it); not on end entities, where validators such as iText 5
    // refuse a TSA certificate whose basicConstraints and extendedKeyUsage are both critical.
    new x509.BasicConstraintsExtension(isCa, isCa ? 0 : undefined, isCa),
    new x509.KeyUsagesExtension(
      isCa
        ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
        : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
      true,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  // RFC 3161 §2.3: a TSA certificate has exactly one, critical, extended key usage: id-kp-timeStamping.
  if (purpose === 'local-tsa')
    extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true));
  if (issuer) {
    const urls = localCaUrls(publicUrl);
    extensions.push(
      await x509.AuthorityKeyIdentifierExtension.create(new x509.X509Certificate(arrayBuffer(issuer.certificate))),
      new x509.CRLDistributionPointsExtension([urls.crl]),
      new x509.AuthorityInfoAccessExtension({ caIssuers: urls.certificate }),
    );
  }
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: SUBJECT[purpose],
    issuer: issuer ? new x509.X509Certificate(arrayBuffer(issuer.certificate)).subject : SUBJECT[purpose],
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + VALIDITY_DAYS[purpose] * DAY),
    signingAlgorithm: RSA,
    publicKey: keys.publicKey,
    signingKey: issuer ? await toCryptoKey(issuer.privateKey) : keys.privateKey,
    extensions,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return {
    privateKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    certificate: new Uint8Array(certificate.rawData),
  };
}

interface ServiceKeyRow {
  purpose: ServiceKeyPurpose;
  certificate: Buffer;
  chain: Buffer[] | null;
  private_key_envelope: Buffer;
  not_after: Date;
}

/** The service's local PKI: keys created on first use, kept sealed in service_keys. */
export class LocalPki {
  private readonly cache = new Map<ServiceKeyPurpose, Promise<ServiceKey>>();
  private crlOfHour: { hour: number; crl: Promise<Uint8Array> } | null = null;

  constructor(
    private readonly knex: Knex,
    private readonly secrets: Secrets,
    private readonly now: () => Date,
    /** The service's public base URL (Config.publicUrl): issued certificates point at its /pki/ endpoints. */
    private readonly publicUrl: string,
  ) {}

  /** The key of `purpose`, issuing (and storing) it when there is none or the stored one has expired. */
  key(purpose: ServiceKeyPurpose): Promise<ServiceKey> {
    let pending = this.cache.get(purpose);
    if (!pending) {
      pending = this.load(purpose);
      this.cache.set(purpose, pending);
      pending.catch(() => this.cache.delete(purpose));
    }
    return pending;
  }

  private async load(purpose: ServiceKeyPurpose): Promise<ServiceKey> {
    const issuer = purpose === 'local-ca' ? null : await this.key('local-ca');
    return this.knex.transaction(async (trx) => {
      // One issuer at a time across instances: the advisory lock is released with the transaction.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`service-key:${purpose}`]);
      const row = (await trx('service_keys').where({ purpose }).orderBy('created_at', 'desc').first()) as
        ServiceKeyRow | undefined;
      if (row && row.not_after.getTime() > this.now().getTime() && (await this.current(purpose, row))) {
        return this.fromRow(row);
      }
      const issued = await issue(purpose, this.now(), issuer, this.publicUrl);
      const chain = issuer ? [issuer.certificate, ...issuer.chain] : [];
      const parsed = new X509Certificate(issued.certificate);
      await trx('service_keys').insert({
        purpose,
        certificate: Buffer.from(issued.certificate),
        chain: chain.map((c) => Buffer.from(c)),
        private_key_envelope: Buffer.from(
          this.secrets.seal(issued.privateKey.export({ format: 'der', type: 'pkcs8' })),
        ),
        not_before: new Date(parsed.validFrom),
        not_after: new Date(parsed.validTo),
      });
      return {
        purpose,
        privateKey: issued.privateKey,
        certificate: issued.certificate,
        chain,
        notAfter: new Date(parsed.validTo),
      };
    });
  }

  /**
   * A stored leaf certificate is current when it names this CA's CRL distribution point at the public URL; older
   * ones (issued before they carried one, or for another URL) are re-issued so existing deployments heal.
   */
  private async current(purpose: ServiceKeyPurpose, row: ServiceKeyRow): Promise<boolean> {
    if (purpose === 'local-ca') return true;
    const x509 = await x509Lib();
    const points = new x509.X509Certificate(new Uint8Array(row.certificate)).getExtension(
      x509.CRLDistributionPointsExtension,
    );
    const urls = (points?.distributionPoints ?? []).flatMap((p) =>
      (p.distributionPoint?.fullName ?? []).map((n) => n.uniformResourceIdentifier),
    );
    return urls.includes(localCaUrls(this.publicUrl).crl);
  }

  private fromRow(row: ServiceKeyRow): ServiceKey {
    const pkcs8 = Buffer.from(this.secrets.open(row.private_key_envelope));
    return {
      purpose: row.purpose,
      privateKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
      certificate: new Uint8Array(row.certificate),
      chain: (row.chain ?? []).map((c) => new Uint8Array(c)),
      notAfter: new Date(row.not_after),
    };
  }

  /**
   * The local CA's CRL (DER): nothing revoked. One CRL per hour: thisUpdate at the start of the hour, CRL Number the
   * hours since 1970 (so it only grows, on every instance alike), valid for a week; RSA PKCS#1 v1.5 signatures are
   * deterministic, so every instance serves the same bytes for the same hour.
   */
  crl(): Promise<Uint8Array> {
    const hour = Math.floor(this.now().getTime() / HOUR);
    if (this.crlOfHour?.hour !== hour) {
      const crl = this.issueCrl(hour);
      this.crlOfHour = { hour, crl };
      crl.catch(() => {
        if (this.crlOfHour?.crl === crl) this.crlOfHour = null;
      });
    }
    return this.crlOfHour!.crl;
  }

  private async issueCrl(hour: number): Promise<Uint8Array> {
    const ca = await this.key('local-ca');
    const x509 = await x509Lib();
    const caCertificate = new x509.X509Certificate(arrayBuffer(ca.certificate));
    const keyId = caCertificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    const thisUpdate = new Date(hour * HOUR);
    const crl = await x509.X509CrlGenerator.create({
      issuer: caCertificate.subject,
      thisUpdate,
      nextUpdate: new Date(thisUpdate.getTime() + 7 * DAY),
      entries: [],
      extensions: [
        new x509.Extension('2.5.29.20', false, new asn1js.Integer({ value: hour }).toBER(false)),
        keyId
          ? new x509.AuthorityKeyIdentifierExtension(keyId)
          : await x509.AuthorityKeyIdentifierExtension.create(caCertificate),
      ],
      signingAlgorithm: RSA,
      signingKey: await toCryptoKey(ca.privateKey),
    });
    return new Uint8Array(crl.rawData);
  }
}
