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

/** RFC 5280 §5.3.1 reason names, as reports show them. */
export type RevocationReason =
  | 'unspecified'
  | 'keyCompromise'
  | 'cACompromise'
  | 'affiliationChanged'
  | 'superseded'
  | 'cessationOfOperation'
  | 'certificateHold'
  | 'removeFromCRL'
  | 'privilegeWithdrawn'
  | 'aACompromise';

/** The revocation status of one certificate, as a CRL or an OCSP response from its issuer states it. */
export interface CertificateStatus {
  /** The certificate (DER) and its subject on one line. */
  certificate: Uint8Array;
  subject: string;
  /**
   * good / revoked: a CRL or OCSP response signed by the issuer (or its delegated OCSP responder) says so;
   * unknown: no usable CRL or OCSP response could be had (`detail` says why: no source named, a fetch failed, a
   * response did not verify, was stale, or the responder answered unknown);
   * not-applicable: a self-signed certificate (a root), which nobody can revoke.
   */
  status: 'good' | 'revoked' | 'unknown' | 'not-applicable';
  method: 'crl' | 'ocsp' | null;
  /** When the certificate was revoked, and why (revoked only). */
  revokedAt: Date | null;
  reason: RevocationReason | null;
  /** thisUpdate of the CRL or OCSP response the status comes from. */
  thisUpdate: Date | null;
  /** Why the status is unknown, or which source said it: a URL, "DSS", "local CA". */
  detail: string | null;
  /** The evidence itself (DER), for a DSS. */
  crl?: Uint8Array;
  ocspResponse?: Uint8Array;
}

/** Fetches revocation data (CRL distribution points, OCSP, or the local CA's own CRL) for chains. */
export interface RevocationSource {
  /**
   * The status of every certificate of `chain` (leaf first, issuers after it) now: OCSP where the certificate names a
   * responder, otherwise (or when OCSP fails) its CRL distribution points; the local CA's certificates from its own
   * CRL. Never throws for a revoked or unknown status: the caller decides. Responses are cached until nextUpdate.
   */
  check(chain: readonly Uint8Array[]): Promise<CertificateStatus[]>;
  /**
   * Validation data for a DSS: every certificate of the chains and a CRL or OCSP response for each one that is not
   * a root. Throws AppError('REVOCATION_UNAVAILABLE') naming the certificate when one cannot be had; a revoked status
   * is data too (it proves when the revocation happened) and is returned like any other.
   */
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
  /**
   * Checks the signing key's chain before anything is signed (a revoked or unknown status refuses), and gathers the
   * DSS data from B-LT up. Required from B-LT up; without it the key is not checked.
   */
  revocation?: RevocationSource;
  /** Make this a certification (DocMDP) signature with permission level P; only as the document's first signature. */
  certify?: 1 | 2 | 3;
}

export interface SignPdfResult {
  pdf: Uint8Array;
  level: PadesLevel;
  /** The signature timestamp's time (B-T and up). */
  timestampTime: Date | null;
  /** The last document timestamp's TSA certificate expiry (B-LTA), for the renewal schedule. */
  documentTimestampNotAfter: Date | null;
}

/** A signature's overall result (ETSI EN 319 102-1: TOTAL-PASSED, TOTAL-FAILED, INDETERMINATE). */
export type SignatureStatus = 'valid' | 'invalid' | 'indeterminate';

/**
 * The document's verdict, most serious first: changed-after-signing (a later revision made a change no signature and
 * no certification allows), invalid (a signature is broken or was made with a revoked certificate), indeterminate (a
 * signature cannot be checked: unreadable, untrusted chain, revocation status unknown), valid, or no-signatures.
 */
export type DocumentVerdict = 'changed-after-signing' | 'invalid' | 'indeterminate' | 'valid' | 'no-signatures';

/** What a later revision changed, by what the changed objects are in the document. */
export type ChangeKind =
  | 'dss'
  | 'document-timestamp'
  | 'signature'
  | 'form-fill'
  | 'annotation'
  | 'metadata'
  | 'page-content'
  | 'page-resources'
  | 'page-tree'
  | 'page'
  | 'catalog'
  | 'acroform'
  | 'signature-modified'
  | 'unrecognized-bytes';

/** One kind of change made by one revision (1-based), on one page where it concerns a page. */
export interface RevisionChange {
  revision: number;
  kind: ChangeKind;
  /** Allowed after the signatures before it: by the certification level, or by a later signature covering it. */
  allowed: boolean;
  page: number | null;
  /** Some of the objects concerned ("12 0 R"), at most 10. */
  objects: string[];
}

/** The signer certificate's revocation status at verification, and what it means for the signature. */
export interface RevocationReport {
  /**
   * good; revoked (before the signing time a timestamp proves, or with no such proof: the signature is invalid);
   * revoked-after-signing (the timestamp proves the signature existed before the revocation: valid, with a note);
   * unknown (no usable revocation data: `detail` says which certificate and why); not-checked (the chain does not
   * end at a trusted root, or the signer certificate is self-signed).
   */
  status: 'good' | 'revoked' | 'revoked-after-signing' | 'unknown' | 'not-checked';
  /** The certificate the status is about (the first of the chain whose status is not good). */
  subject: string | null;
  /** Where the data came from: the PDF's DSS, the CMS itself (adbe-revocationInfoArchival), or fetched now. */
  source: 'dss' | 'cms' | 'online' | null;
  method: 'crl' | 'ocsp' | null;
  revokedAt: string | null;
  reason: RevocationReason | null;
  detail: string | null;
}

/** One signature (or document timestamp) found in a PDF, as the verify operation reports it. */
export interface SignatureReport {
  index: number;
  fieldName: string | null;
  subFilter: string;
  kind: 'signature' | 'document-timestamp';
  status: SignatureStatus;
  /** The revision (1-based) this signature signs: the file up to the end of its ByteRange. */
  revision: number | null;
  /** A certification (DocMDP) signature's permission level P: 1 no changes, 2 form filling and signing, 3 + annotations. */
  certification: 1 | 2 | 3 | null;
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
  /**
   * valid: the ByteRange digest equals the CMS message-digest and the CMS signature verifies with the certificate;
   * invalid: either does not; unknown: it could not be computed (no readable CMS, a malformed ByteRange).
   */
  integrity: 'valid' | 'invalid' | 'unknown';
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
    /** The TSA certificate's chain, checked against the trust anchors like the signer's. */
    chain: 'trusted' | 'untrusted' | 'incomplete';
  } | null;
  revocation: RevocationReport;
  /** Validation data in a DSS of a later revision: whether it holds this signature's (and its TSA's) chains. */
  ltv: { dss: boolean; crls: number; ocspResponses: number; certificates: number };
  /** The highest PAdES baseline level the signature meets, or null when it is not PAdES (e.g. adbe.pkcs7.detached). */
  padesLevel: PadesLevel | null;
  /** Stable codes; the contract lists them. */
  problems: string[];
}

export interface VerificationReport {
  /** SHA-256 of the whole file. */
  sha256: string;
  revisions: number;
  verdict: DocumentVerdict;
  signatures: SignatureReport[];
  /** Signatures found beyond the reporting cap (each distinct ByteRange is reported once). */
  signaturesOmitted: number;
  /** The certification signature's level, and whether a later revision broke it. */
  certification: { level: 1 | 2 | 3; signatureIndex: number; violated: boolean } | null;
  /** What each revision after the first signed one changed. */
  changes: RevisionChange[];
  /** The file is encrypted and opened with the empty user password. */
  encrypted: boolean;
  /** At least one signature, and every signature has integrity 'valid'. */
  allIntact: boolean;
  /** Bytes after the last signed revision that no signature covers (a later unsigned change). */
  unsignedTrailingBytes: number;
}
