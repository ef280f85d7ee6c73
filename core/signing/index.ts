/*
 * core/signing: the PAdES engine (CMS, RFC 3161 timestamps, DSS/LTV, document timestamps, verification), key custody
 * and the signature-type contract. Signature-type plugins import from here and from core/plugins only.
 */
export type * from './types.ts';
export * from './signature-types.ts';
export { AppError } from '../http/errors.ts';
export { softwareKey } from './keys.ts';
export { SignatureTypeRegistry } from './registry.ts';
export { addDocumentTimestamp, extendToLta, signPdf } from './pades.ts';
export { signRequest } from './sign-request.ts';
