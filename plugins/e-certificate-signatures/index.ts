/*
 * Signature types signed with a user's own e-certificate (PKCS#12 registered on /me/e-certificate): party, proxy
 * (an agent signs with the principal's certificate; both are named) and advanced (party plus a B-LT signature with
 * validation data, and the certificate must name the signer). The signing module opens the certificate after
 * checking its status and PIN and hands it over as request.eCertificate.
 */
import { definePlugin } from '../../core/plugins/index.ts';
import {
  AppError,
  type PadesLevel,
  type SignatureRequest,
  type SignatureType,
  signRequest,
} from '../../core/signing/index.ts';

/** Names compare without spaces (full-width included) and case. */
const normalized = (name: string) => name.normalize('NFKC').replace(/\s+/g, '').toLowerCase();

/** The advanced signature's identity check: the certificate's CN or one of its e-mail addresses is the signer's. */
export function certificateNamesSigner(request: SignatureRequest): boolean {
  const certificate = request.eCertificate!;
  const { name, email } = request.signer;
  if (certificate.commonName && normalized(certificate.commonName) === normalized(name)) return true;
  return certificate.emails.some((address) => address.toLowerCase() === email.toLowerCase());
}

function certificateType(code: 'party' | 'proxy' | 'advanced', level: PadesLevel): SignatureType {
  return {
    code,
    allowsTwoFactor: false,
    requiresPin: true,
    signsOnBehalf: code === 'proxy',
    requiredPlacement: null,
    padesLevel: level,
    async sign(request, services) {
      const certificate = request.eCertificate;
      if (!certificate) throw new AppError('E_CERTIFICATE_NOT_REGISTERED');
      if (code === 'advanced' && !certificateNamesSigner(request)) throw new AppError('SIGNER_IDENTITY_MISMATCH');
      const agent = code === 'proxy' ? request.signer : null;
      return signRequest(request, services, {
        key: certificate.key,
        level,
        signerName: certificate.owner.name,
        reason: agent
          ? `代理署名 / Signed by agent ${agent.name} <${agent.email}> on behalf of ${certificate.owner.name}`
          : `当事者署名 / Party signature: ${certificate.owner.name}`,
        contactInfo: certificate.owner.email,
        onBehalfOfUserId: agent ? certificate.owner.userId : null,
      });
    },
  };
}

export const eCertificateSignaturesPlugin = definePlugin({
  name: 'e-certificate-signatures',
  signatureTypes: [
    certificateType('party', 'B-T'),
    certificateType('proxy', 'B-T'),
    certificateType('advanced', 'B-LT'),
  ],
});
