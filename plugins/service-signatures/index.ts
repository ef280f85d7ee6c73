/*
 * Signature types signed with the business operator's key (the service signs on the signer's behalf and names the
 * signer in the signature): operator, handwritten, seal-image and long-term, and the document-timestamp-only type.
 * The operator types may ask for a two-factor code (the signing module checks it before calling sign).
 */
import { definePlugin } from '../../core/plugins/index.ts';
import {
  addDocumentTimestamp,
  type PadesLevel,
  type SignatureOutcome,
  type SignatureRequest,
  type SignatureType,
  type SigningServices,
  signRequest,
} from '../../core/signing/index.ts';

function operatorReason(request: SignatureRequest): string {
  const { name, email } = request.signer;
  return `事業者署名 / Business-operator signature: ${name} <${email}>`;
}

async function signWithOperatorKey(
  request: SignatureRequest,
  services: SigningServices,
  level: PadesLevel,
): Promise<SignatureOutcome> {
  return signRequest(request, services, {
    key: await services.operatorKey(),
    level,
    signerName: request.signer.name,
    reason: operatorReason(request),
    contactInfo: request.signer.email,
    onBehalfOfUserId: null,
  });
}

function operatorType(
  code: 'operator' | 'handwritten' | 'seal-image' | 'long-term',
  requiredPlacement: SignatureType['requiredPlacement'],
  level: PadesLevel,
): SignatureType {
  return {
    code,
    allowsTwoFactor: true,
    requiresPin: false,
    signsOnBehalf: false,
    requiredPlacement,
    padesLevel: level,
    sign: (request, services) => signWithOperatorKey(request, services, level),
  };
}

const timestampOnly: SignatureType = {
  code: 'timestamp',
  allowsTwoFactor: false,
  requiresPin: false,
  signsOnBehalf: false,
  requiredPlacement: null,
  padesLevel: 'document-timestamp',
  async sign(request, services) {
    const stamped = await addDocumentTimestamp(request.pdf, services.tsa, services.pdfWork);
    return {
      pdf: stamped.pdf,
      level: 'document-timestamp',
      certificate: null,
      onBehalfOfUserId: null,
      timestampTime: stamped.genTime,
      documentTimestampNotAfter: null,
    };
  },
};

export const serviceSignaturesPlugin = definePlugin({
  name: 'service-signatures',
  signatureTypes: [
    operatorType('operator', null, 'B-T'),
    operatorType('handwritten', 'handwritten', 'B-T'),
    operatorType('seal-image', 'seal', 'B-T'),
    operatorType('long-term', null, 'B-LTA'),
    timestampOnly,
  ],
});
