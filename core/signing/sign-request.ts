/*
 * What every key-based signature type does once it knows whose key signs and whom to name: check that the key's
 * chain is not revoked (a user's e-certificate or the service's key; an unknown status refuses too), sign the
 * request's PDF at its level with the request's appearances and the services' TSA and revocation data, and report
 * the outcome. It runs with no database transaction open (the revocation check and the TSA go over the network,
 * the PDF work runs in the worker pool), so it never holds row locks while it waits.
 */
import { signPdf } from './pades.ts';
import { assertKeyNotRevoked } from './revocation.ts';
import type { SignatureOutcome, SignatureRequest, SigningServices } from './signature-types.ts';
import type { PadesLevel, SigningKey } from './types.ts';

/** Signs the request's PDF with `signature.key` after checking the key's chain is not revoked. */
export async function signRequest(
  request: SignatureRequest,
  services: SigningServices,
  signature: {
    key: SigningKey;
    level: PadesLevel;
    /** /Name: the person the signature is of. */
    signerName: string;
    reason: string;
    contactInfo: string;
    onBehalfOfUserId: string | null;
  },
): Promise<SignatureOutcome> {
  await assertKeyNotRevoked(
    [signature.key.certificate, ...signature.key.chain],
    services.revocation,
    request.eCertificate ? 'user' : 'service',
  );
  const result = await signPdf(
    {
      pdf: request.pdf,
      key: signature.key,
      level: signature.level,
      signerName: signature.signerName,
      reason: signature.reason,
      contactInfo: signature.contactInfo,
      claimedTime: request.claimedTime,
      appearances: request.appearances,
      tsa: services.tsa,
      revocation: services.revocation,
    },
    services.pdfWork,
  );
  return {
    pdf: result.pdf,
    level: signature.level,
    certificate: signature.key.certificate,
    onBehalfOfUserId: signature.onBehalfOfUserId,
    timestampTime: result.timestampTime,
    documentTimestampNotAfter: result.documentTimestampNotAfter,
  };
}
