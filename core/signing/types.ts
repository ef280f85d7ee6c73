/*
 * The signing engine's public shapes. core/signing implements them (PAdES baseline profiles of ETSI EN 319 142-1);
 * signature-type plugins and the signing module use only these and the functions exported by core/signing/index.ts.
 */

/** PAdES baseline levels. */
export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/**
 * A private key the engine may use, behind an interface so an HSM or KMS can stand in for the software key.
 * `sign` receives the DER of the CMS signed attributes and returns the raw signature value (PKCS#1 v1.5 for RSA,
 * DER-encoded ECDSA-Sig-Value for ECDSA), computing SHA-256 itself.
 */
export interface SigningKey {
  readonly algorithm: 'RSA' | 'ECDSA-P256';
  /** The signer's certificate, DER. */
  readonly certificate: Uint8Array;
  /** Issuer certificates from the signer's issuer up to (and including) the root when known, DER. */
  readonly chain: readonly Uint8Array[];
  sign(signedAttributesDer: Uint8Array): Promise<Uint8Array>;
}

/** A verified RFC 3161 timestamp token (a CMS SignedData with TSTInfo). */
export interface TimestampToken {
  /** DER of the ContentInfo (what goes into id-aa-signatureTimeStampToken or a document timestamp's /Contents). */
  readonly der: Uint8Array;
  readonly genTime: Date;
  readonly serialNumber: string;
  /** The TSA's signing certificate, DER, and its chain. */
  readonly tsaCertificate: Uint8Array;
  readonly tsaChain: readonly Uint8Array[];
}

/**
 * An RFC 3161 timestamp authority client. `timestamp` sends a request with a fresh nonce and certReq, and checks the
 * response's status, message imprint, nonce and signature before returning; any failure throws
 * AppError('TSA_UNAVAILABLE') (transport) or AppError('TSA_RESPONSE_INVALID') (content). Never falls back to a
 * local clock.
 */
export interface TimestampAuthority {
  /** What reports show: the TSA URL, or "local TSA (built-in, not publicly trusted)". */
  readonly label: string;
  /** True for the built-in TSA of the embedded default. */
  readonly local: boolean;
  timestamp(sha256Imprint: Uint8Array): Promise<TimestampToken>;
}

/** Revocation material for a DSS: what B-LT adds. */
export interface ValidationData {
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocspResponses: Uint8Array[];
}

/** Fetches revocation data (CRL distribution points, OCSP, or the local CA's own CRL) for a chain. */
export interface RevocationSource {
  /** Throws AppError('REVOCATION_UNAVAILABLE') when a certificate's status cannot be established. */
  collect(chains: readonly (readonly Uint8Array[])[]): Promise<ValidationData>;
}

/** A visible element drawn in the new signature's appearance: coordinates in PDF points, origin lower-left. */
export interface Appearance {
  /** 1-based page number. */
  page: number;
  /** [x1, y1, x2, y2]: lower-left then upper-right. */
  rect: [number, number, number, number];
  /** A seal or handwritten image (PNG, JPEG or GIF; GIF is converted to PNG before drawing). */
  image?: { bytes: Uint8Array; contentType: 'image/png' | 'image/jpeg' | 'image/gif' };
  /** Embedded text: at most 3 lines of at most 7 characters, drawn with an embedded Japanese font subset. */
  text?: string[];
}

export interface SignPdfInput {
  pdf: Uint8Array;
  key: SigningKey;
  level: PadesLevel;
  /** Shown as /Name; for an agent, the certificate owner with the agent named in /Reason. */
  signerName: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** The claimed signing time, written to /M (never as a signingTime attribute). */
  claimedTime: Date;
  appearances?: Appearance[];
  /** Required from B-T up. */
  tsa?: TimestampAuthority;
  /** Required from B-LT up. */
  revocation?: RevocationSource;
}

export interface SignPdfResult {
  pdf: Uint8Array;
  level: PadesLevel;
  /** The signature timestamp's time (B-T and up). */
  timestampTime: Date | null;
  /** The last document timestamp's TSA certificate expiry (B-LTA), for the renewal schedule. */
  documentTimestampNotAfter: Date | null;
}

/** One signature (or document timestamp) found in a PDF, as the verify operation reports it. */
export interface SignatureReport {
  index: number;
  fieldName: string | null;
  subFilter: string;
  kind: 'signature' | 'document-timestamp';
  signerName: string | null;
  certificate: {
    subject: string;
    issuer: string;
    serialNumber: string;
    notBefore: string;
    notAfter: string;
    fingerprintSha256: string;
  } | null;
  /** /M, when present. */
  claimedTime: string | null;
  byteRange: [number, number, number, number];
  /** The ByteRange digest equals the CMS message-digest and the CMS signature verifies with the certificate. */
  integrity: 'valid' | 'invalid';
  /** The signature covers the whole file, or an earlier revision (later incremental updates follow it). */
  coverage: 'whole-document' | 'revision';
  /** Chain built from the CMS and DSS to a trusted root; 'untrusted' when it ends at a root we do not trust. */
  chain: 'trusted' | 'untrusted' | 'incomplete';
  chainSubjects: string[];
  timestamp: {
    time: string;
    tsa: string;
    /** The token's imprint matches and its signature verifies. */
    valid: boolean;
    /** Issued by the built-in local TSA. */
    local: boolean;
  } | null;
  /** A DSS with revocation data for this signature's chain exists in a later revision. */
  ltv: { dss: boolean; crls: number; ocspResponses: number; certificates: number };
  /** The highest PAdES baseline level the signature meets, or null when it is not PAdES (e.g. adbe.pkcs7.detached). */
  padesLevel: PadesLevel | null;
  problems: string[];
}

export interface VerificationReport {
  /** SHA-256 of the whole file. */
  sha256: string;
  revisions: number;
  signatures: SignatureReport[];
  /** Every signature has integrity 'valid'. */
  allIntact: boolean;
  /** Bytes after the last signed revision that no signature covers (a later unsigned change). */
  unsignedTrailingBytes: number;
}
