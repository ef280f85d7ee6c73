/*
 * The signing services one Keiyaku instance holds: the local PKI, the TSA (TSA_URL or the built-in one), revocation
 * data, the trust store, secrets at rest and the business-operator key (the configured PKCS#12, or one issued by
 * the local CA in the embedded default). The PDF work of signing and verification runs in the service's PDF worker
 * pool, which the engine is handed and does not own (core/service.ts closes it).
 */
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { PdfWorkPool } from '../pdf-work/pool.ts';
import { softwareKey } from './keys.ts';
import { readPkcs12 } from './pkcs12.ts';
import { LocalPki } from './pki.ts';
import { revocationSource } from './revocation.ts';
import { signPdf } from './pades.ts';
import { createSecrets } from './secrets.ts';
import type { SigningServices } from './signature-types.ts';
import { httpTimestampAuthority, localTimestampAuthority } from './tsa.ts';
import type { SigningKey, VerificationReport } from './types.ts';
import { parsePemBundle, type TrustStore } from './verify.ts';

export interface SigningEngine extends SigningServices {
  pki: LocalPki;
  /**
   * Loads (or issues) every key the engine may need, so a signature finds them ready and never issues a key halfway
   * through a request. Cheap once done.
   */
  warm(): Promise<void>;
  trust(): Promise<TrustStore>;
  /**
   * Verifies `pdf` in the PDF worker pool (core/pdf-work) against the trust store, the local CA's current CRL and,
   * where reachable, published revocation data. A copy of the bytes moves to the worker, so the caller keeps `pdf`
   * (a 30 MB copy costs milliseconds; a caller's buffer emptied behind its back costs a bug). With `upload`, the
   * bytes are first inspected as an upload to the verification place.
   */
  verify(pdf: Uint8Array, options?: { upload?: { fileName: string } }): Promise<VerificationReport>;
}

/** The signing services of one instance; `pdfWork` is the service's PDF worker pool. */
export function createSigningEngine(config: Config, knex: Knex, clock: Clock, pdfWork: PdfWorkPool): SigningEngine {
  const secrets = createSecrets(config.masterKey);
  const now = () => clock.now();
  const pki = new LocalPki(knex, secrets, now, config.publicUrl);
  const { signing } = config;
  const tsa = signing.tsaUrl
    ? httpTimestampAuthority(signing.tsaUrl, signing.tsaTimeoutMs)
    : localTimestampAuthority(() => pki.key('local-tsa'), now);
  const configuredAnchors = signing.trustAnchorsFile
    ? parsePemBundle(readFileSync(signing.trustAnchorsFile, 'utf8'))
    : [];
  let operator: Promise<SigningKey> | null = null;
  const trust = async (): Promise<TrustStore> => {
    const localCa = (await pki.key('local-ca')).certificate;
    return { anchors: [localCa, ...configuredAnchors], localCa };
  };
  return {
    pki,
    secrets,
    tsa,
    pdfWork,
    revocation: revocationSource({
      localCa: async () => ({ certificate: (await pki.key('local-ca')).certificate, crl: await pki.crl() }),
      timeoutMs: signing.tsaTimeoutMs,
      now,
    }),
    trust,
    async warm() {
      await Promise.all([pki.key('local-ca'), pki.key('local-tsa'), this.operatorKey()]);
    },
    async verify(pdf, options = {}) {
      const bytes = new Uint8Array(pdf);
      const input = {
        pdf: bytes,
        trust: await trust(),
        options: {
          now: clock.now(),
          fetchRevocation: true,
          revocationTimeoutMs: signing.tsaTimeoutMs,
          localCaCrl: await pki.crl(),
        },
        upload: options.upload ?? null,
      };
      return pdfWork.run('verify', input, { transfer: [bytes.buffer] });
    },
    operatorKey() {
      operator ??= (async () => {
        if (signing.operatorP12File) {
          const content = await readPkcs12(readFileSync(signing.operatorP12File), signing.operatorP12Password);
          return softwareKey({
            privateKey: content.privateKeyPkcs8,
            certificate: content.certificate,
            chain: content.chain,
          });
        }
        const key = await pki.key('operator');
        return softwareKey({ privateKey: key.privateKey, certificate: key.certificate, chain: key.chain });
      })();
      operator.catch(() => {
        operator = null;
      });
      return operator;
    },
  };
}

/**
 * Signs a PDF the service made (a certificate, an invoice) with the business-operator key: PAdES B-T, the
 * signature timestamp from the configured TSA, the PDF side in the worker pool.
 */
export async function sealWithOperatorKey(
  engine: SigningEngine,
  pdfWork: PdfWorkPool,
  pdf: Uint8Array,
  input: { reason: string; claimedTime: Date },
): Promise<Uint8Array> {
  const signed = await signPdf(
    {
      pdf,
      key: await engine.operatorKey(),
      level: 'B-T',
      signerName: 'Keiyaku 電子契約サービス',
      reason: input.reason,
      claimedTime: input.claimedTime,
      tsa: engine.tsa,
      revocation: engine.revocation,
    },
    pdfWork,
  );
  return signed.pdf;
}
