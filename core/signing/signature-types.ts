/*
 * Signature types are plugins: each registers one or more SignatureType on core/signing through the plugin contract
 * (`signatureTypes: [...]`). A sign task names its type (tasks.signature_type); the signing module checks the
 * common rules (task runnable, e-mail confirmed, placements inside the page, two-factor code when the task asks for
 * one), then hands the type the document and the signer, and stores what it returns as the next revision.
 * A type signs with no database transaction open (it calls the TSA, fetches revocation data and hands PDF work to
 * the worker pool, all of which take time): it gets no database handle and reaches the world only through
 * SigningServices. The signing module writes the result in a short transaction of its own afterwards.
 */
import type { PdfWorkPool } from '../pdf-work/pool.ts';
import type { Appearance, PadesLevel, RevocationSource, SigningKey, TimestampAuthority } from './types.ts';

/** The signature type codes of the spec. */
export const SIGNATURE_TYPE_CODES = [
  'party', // the signer's own e-certificate (PKCS#12)
  'proxy', // an agent signs with the principal's e-certificate; both recorded
  'advanced', // party signature + mandatory timestamp + signer identity checks
  'operator', // the service's key signs on the signer's behalf (optional two-factor code)
  'handwritten', // a handwritten image drawn in the browser, signed with the service's key
  'seal-image', // a registered seal image, signed with the service's key
  'timestamp', // a document timestamp only (ETSI.RFC3161)
  'long-term', // the service's key at B-LTA, renewed before the timestamp's certificate expires
] as const;
export type SignatureTypeCode = (typeof SIGNATURE_TYPE_CODES)[number];

/** The person executing the sign task: a user, or a one-time user (userId null) named by oneTimeUserId. */
export interface Signer {
  userId: string | null;
  oneTimeUserId?: string | null;
  organizationId: string;
  name: string;
  email: string;
  ipAddress: string | null;
}

/**
 * What the signing module hands a type: the latest revision and the validated visible elements. Everything a type
 * needs from the database is read beforehand and carried here; no transaction is open while the type signs.
 */
export interface SignatureRequest {
  documentId: string;
  taskId: string;
  pdf: Uint8Array;
  signer: Signer;
  appearances: Appearance[];
  claimedTime: Date;
  /**
   * For types with `requiresPin`: the e-certificate the signing module opened after checking its status and PIN
   * (the signer's own, or for 'proxy' the principal's), with whom it belongs to.
   */
  eCertificate?: {
    key: SigningKey;
    owner: { userId: string; name: string; email: string };
    /** The certificate's subject CN and e-mail addresses (subject emailAddress and rfc822 SANs), for identity checks. */
    commonName: string | null;
    emails: string[];
  };
}

/** What a type returns: the new revision and what the ledger records. */
export interface SignatureOutcome {
  pdf: Uint8Array;
  level: PadesLevel | 'document-timestamp';
  /** The certificate that signed (the service's for operator types, the user's for party types); null for timestamp. */
  certificate: Uint8Array | null;
  onBehalfOfUserId: string | null;
  timestampTime: Date | null;
  /** Set for B-LTA revisions: when the last document timestamp's TSA certificate expires. */
  documentTimestampNotAfter: Date | null;
}

/** Service-held signing material a type may use. */
export interface SigningServices {
  /** The business-operator key: the configured PKCS#12, or one issued by the local CA in the embedded default. */
  operatorKey(): Promise<SigningKey>;
  tsa: TimestampAuthority;
  revocation: RevocationSource;
  /** AES-256-GCM envelopes under the master key (for private keys at rest). */
  secrets: { seal(plain: Uint8Array): Uint8Array; open(envelope: Uint8Array): Uint8Array };
  /** The PDF worker pool: hand it to signPdf and addDocumentTimestamp so the PDF work runs off the event loop. */
  pdfWork: PdfWorkPool;
}

export interface SignatureType {
  code: SignatureTypeCode;
  /** Business-operator types may ask for a two-factor code; party types ask for a PIN instead. */
  allowsTwoFactor: boolean;
  requiresPin: boolean;
  /** 'proxy': the signer is an agent naming the principal (onBehalfOfUserId). */
  signsOnBehalf: boolean;
  /** What the type produces, shown before signing. */
  padesLevel: PadesLevel | 'document-timestamp';
  /** A visible element the type cannot do without: 'seal' (seal image), 'handwritten', or none. */
  requiredPlacement: 'seal' | 'handwritten' | null;
  /**
   * Signs `request.pdf` and returns the new revision; runs outside any database transaction and may be called
   * again with a newer revision when a parallel signer stored one first, so it must not write anything itself.
   */
  sign(request: SignatureRequest, services: SigningServices): Promise<SignatureOutcome>;
}
