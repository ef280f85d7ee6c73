/*
 * What every key-based signature type does once it knows whose key signs and whom to name: sign the request's PDF
 * at its level with the request's appearances and the services' TSA and revocation data, and report the outcome.
 */
import { signPdf } from './pades.ts';
import type { SignatureOutcome, SignatureRequest, SigningServices } from './signature-types.ts';
import type { PadesLevel, SigningKey } from './types.ts';

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
  const result = await signPdf({
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
  });
  return {
    pdf: result.pdf,
    level: signature.level,
    certificate: signature.key.certificate,
    onBehalfOfUserId: signature.onBehalfOfUserId,
    timestampTime: result.timestampTime,
    documentTimestampNotAfter: result.documentTimestampNotAfter,
  };
}
