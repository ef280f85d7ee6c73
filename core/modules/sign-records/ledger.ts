import type { Knex } from 'knex';
import { type ChainVerdict, chainHash, inIdBatches, lastHashLocked, verifyRows } from '../logs/hash-chain.ts';

/** One signature to record: which revision of which document, who signed it how, with which certificate. */
export interface SignRecordEntry {
  organizationId: string;
  documentId: string;
  /** The revision the signature produced (each signing makes a new revision). */
  documentRevision: number;
  /** The signer when a user of the organization; null for an outside signer (one-time user). */
  signerUserId: string | null;
  /** The signer's name as it stood when signing. */
  signerName: string;
  /** A one-time user signer: their id and the e-mail address they proved (null/absent for members). */
  signerOneTimeUserId?: string | null;
  signerEmail?: string | null;
  /** The e-certificate owner when an agent signed on their behalf. */
  onBehalfOfUserId?: string | null;
  /** A signature type of core/signing (party, business-operator, timestamp ...). */
  signatureType: string;
  certificateSubject?: string | null;
  certificateSerial?: string | null;
  /** SHA-256 of the signing certificate (DER), hex. */
  certificateFingerprint?: string | null;
  signedAt: Date;
  /** The time of the RFC 3161 signature timestamp, when there is one. */
  timestampAt?: Date | null;
  /** SHA-256 of the signed revision, hex. */
  documentHash: string;
  /** The signer's client IP address as the request gave it. */
  ipAddress?: string | null;
}

/** A row of sign_records as knex returns it. */
export interface SignRecordRow {
  id: number;
  organization_id: string;
  document_id: string;
  document_revision: number;
  signer_user_id: string | null;
  signer_name: string;
  signer_email: string | null;
  signer_one_time_user_id: string | null;
  on_behalf_of_user_id: string | null;
  signature_type: string;
  certificate_subject: string | null;
  certificate_serial: string | null;
  certificate_fingerprint: string | null;
  signed_at: Date;
  timestamp_at: Date | null;
  document_hash: string;
  ip_address: string | null;
  recorded_at: Date;
  prev_hash: string | null;
  hash: string;
}

/**
 * The hashed content of a ledger row: every column but id, prev_hash and hash. The one-time user columns came later:
 * they are hashed only when set, so the rows written before them keep their hashes.
 */
export function signRecordHash(row: Omit<SignRecordRow, 'id' | 'hash'>): string {
  return chainHash(row.prev_hash, {
    signerEmail: row.signer_email ?? undefined,
    signerOneTimeUserId: row.signer_one_time_user_id ?? undefined,
    organizationId: row.organization_id,
    documentId: row.document_id,
    documentRevision: row.document_revision,
    signerUserId: row.signer_user_id,
    signerName: row.signer_name,
    onBehalfOfUserId: row.on_behalf_of_user_id,
    signatureType: row.signature_type,
    certificateSubject: row.certificate_subject,
    certificateSerial: row.certificate_serial,
    certificateFingerprint: row.certificate_fingerprint,
    signedAt: row.signed_at,
    timestampAt: row.timestamp_at,
    documentHash: row.document_hash,
    ipAddress: row.ip_address,
    recordedAt: row.recorded_at,
  });
}

/** Whole milliseconds: what survives timestamptz, so the hash can be recomputed from the stored row. */
const millis = (date: Date) => new Date(Math.floor(date.getTime()));

/**
 * Appends one signature to the organization's ledger inside the caller's transaction (the one that stores the
 * signed revision), chained onto the previous row. `recordedAt` is the service clock's now.
 */
export async function appendSignRecord(
  trx: Knex.Transaction,
  entry: SignRecordEntry,
  recordedAt: Date,
): Promise<{ id: number; hash: string }> {
  const prevHash = await lastHashLocked(trx, 'sign_records', entry.organizationId);
  const row: Omit<SignRecordRow, 'id' | 'hash'> = {
    organization_id: entry.organizationId,
    document_id: entry.documentId,
    document_revision: entry.documentRevision,
    signer_user_id: entry.signerUserId,
    signer_name: entry.signerName,
    signer_email: entry.signerEmail ?? null,
    signer_one_time_user_id: entry.signerOneTimeUserId ?? null,
    on_behalf_of_user_id: entry.onBehalfOfUserId ?? null,
    signature_type: entry.signatureType,
    certificate_subject: entry.certificateSubject ?? null,
    certificate_serial: entry.certificateSerial ?? null,
    certificate_fingerprint: entry.certificateFingerprint ?? null,
    signed_at: millis(entry.signedAt),
    timestamp_at: entry.timestampAt ? millis(entry.timestampAt) : null,
    document_hash: entry.documentHash,
    ip_address: entry.ipAddress ?? null,
    recorded_at: millis(recordedAt),
    prev_hash: prevHash,
  };
  const hash = signRecordHash(row);
  const [inserted] = await trx('sign_records')
    .insert({ ...row, hash })
    .returning('id');
  return { id: Number((inserted as { id: number }).id), hash };
}

/** Re-computes an organization's ledger in id order; names the first bad row and why. */
export function verifySignRecords(knex: Knex, organizationId: string): Promise<ChainVerdict> {
  return verifyRows(
    inIdBatches<SignRecordRow>(() => knex('sign_records').where({ organization_id: organizationId })),
    signRecordHash,
  );
}
