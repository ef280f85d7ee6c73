/*
 * Revocation data for B-LT: the local CA's own CRL for what it issued, otherwise the CRL named in each certificate's
 * CRL distribution points (HTTP). A certificate whose status cannot be fetched fails with REVOCATION_UNAVAILABLE:
 * a DSS that silently lacks data would claim a level the document does not have.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '../http/errors.ts';
import type { LocalPki } from './pki.ts';
import type { RevocationSource, ValidationData } from './types.ts';
import { arrayBuffer, sha256 } from './cms.ts';
import { x509Lib } from './x509-lib.ts';

async function crlUrls(certificate: Uint8Array): Promise<string[]> {
  const x509 = await x509Lib();
  const extension = new x509.X509Certificate(arrayBuffer(certificate)).getExtension(
    x509.CRLDistributionPointsExtension,
  );
  const urls: string[] = [];
  for (const point of extension?.distributionPoints ?? []) {
    for (const name of point.distributionPoint?.fullName ?? []) {
      const uri = name.uniformResourceIdentifier;
      if (uri && /^https?:\/\//.test(uri)) urls.push(uri);
    }
  }
  return urls;
}

export function revocationSource(pki: LocalPki, timeoutMs: number): RevocationSource {
  return {
    async collect(chains): Promise<ValidationData> {
      const localCa = new X509Certificate((await pki.key('local-ca')).certificate);
      const certificates = new Map<string, Uint8Array>();
      const crls = new Map<string, Uint8Array>();
      for (const chain of chains) {
        for (const der of chain) {
          certificates.set(Buffer.from(sha256(der)).toString('hex'), der);
          const certificate = new X509Certificate(der);
          if (certificate.issuer === certificate.subject) continue; // a root: trusted as itself, never revoked
          if (certificate.checkIssued(localCa) && certificate.verify(localCa.publicKey)) {
            crls.set('local-ca', await pki.crl());
            continue;
          }
          const urls = await crlUrls(der);
          let fetched: Uint8Array | null = null;
          for (const url of urls) {
            try {
              const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
              if (response.ok) fetched = new Uint8Array(await response.arrayBuffer());
            } catch {
              fetched = null;
            }
            if (fetched) break;
          }
          if (!fetched) {
            throw new AppError('REVOCATION_UNAVAILABLE', { detail: certificate.subject.replace(/\n/g, ', ') });
          }
          crls.set(Buffer.from(sha256(fetched)).toString('hex'), fetched);
        }
      }
      return { certificates: [...certificates.values()], crls: [...crls.values()], ocspResponses: [] };
    },
  };
}
