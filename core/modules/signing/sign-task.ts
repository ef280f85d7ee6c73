/*
 * Signing a sign task. The slow part (the PDF work in the worker pool, the TSA call, revocation fetches) runs with
 * no database transaction open (DESIGN.md "Untrusted input and CPU work"): on the embedded PGlite, with its one
 * connection, a transaction held while signing would stop every other request. Three phases:
 *  1. checks that may refuse, in one short transaction: the task is runnable and a sign task of an available type,
 *     the document's latest version scanned clean, the signer's e-mail confirmed, the placements valid, the
 *     two-factor code or the e-certificate PIN right (the certificate is opened there). Wrong codes and PINs are
 *     counted there and the count is committed before the refusal is thrown. It also reads what the signature
 *     needs: the latest version (id, sha256, number) and the signer.
 *  Then, for types signing with a user's e-certificate, the certificate's chain is checked for revocation (CRL or
 *  OCSP): a revocation found is recorded on the e-certificate in a transaction of its own and refuses with
 *  E_CERTIFICATE_REVOKED; an unknown status refuses with REVOCATION_UNAVAILABLE.
 *  2. the signature, with no transaction open: the version's blob is read, the placements become appearances (page
 *     sizes in the worker pool, seal images by plain reads), the type signs (worker pool, TSA, revocation data) and
 *     the signed PDF is written to the file store (fsynced: blob first).
 *  3. the record, in one short transaction: the rows are locked again and the task checked runnable (same
 *     lockVersion, same type and two-factor rule, e-mail still confirmed, e-certificate still usable); if the
 *     document's latest version is no longer the one signed (a parallel signer of the same order stored one
 *     meanwhile), nothing is written and phase 2 runs again on the newer version, at most MAX_ATTEMPTS times in all
 *     (then 409 UPDATED_BY_ANOTHER_USER). Otherwise the code is used up and the new version, the sign record ledger
 *     row, usage, the task's completion and the long-term schedule are written.
 *  Any failure (TSA down, a concurrent step) leaves no row, no version and no ledger entry; at most an orphan blob,
 *  which the sweeper removes (core/files/sweep-orphans.ts).
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { StoredBlob } from '../../files/blob-store.ts';
import { assertScanAllowsUse, type DocumentVersionRow, latestVersion } from '../../files/scan.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { revocationRefusal } from '../../signing/revocation.ts';
import type { SignatureOutcome, SignatureRequest, SignatureType, Signer } from '../../signing/signature-types.ts';
import { type DocumentActor } from '../documents/model.ts';
import { appendSignRecord } from '../sign-records/ledger.ts';
import { completeTask } from '../tasks/execute-task.ts';
import { assertRunnable, type LockedStep, lockStep } from '../tasks/step.ts';
import { recordUsage } from '../usage/counters.ts';
import { checkSigningCode, consumeSigningCode } from './codes.ts';
import { assertAgentOf, certificateStatus, openECertificate, recordRevocationCheck } from './e-certificates.ts';
import { emailConfirmed } from './email-confirmation.ts';
import { scheduleOf } from './long-term.ts';
import { appearancesOf, type PlacementInput } from './placements.ts';
import { storeRevision } from './revisions.ts';

/** Signatures made in all, when parallel signers keep storing newer versions first. */
export const MAX_ATTEMPTS = 3;

export interface SignTaskInput {
  lockVersion?: number;
  comment?: string | null;
  placements?: PlacementInput[];
  code?: string;
  pin?: string;
  onBehalfOfUserId?: string;
}

/** The task's signature type; a type whose plugin is off is 409 SIGNATURE_TYPE_UNAVAILABLE. */
function typeOf(deps: CoreDeps, step: LockedStep): SignatureType {
  if (step.task.type !== 'sign') throw new AppError('TASK_TYPE_MISMATCH');
  return deps.signatureTypes.get(step.task.signature_type ?? 'operator');
}

async function signerOf(trx: Knex.Transaction, principal: Principal, ip: string | null): Promise<Signer> {
  const user = await trx('users')
    .where({ id: principal.userId })
    .first('id', 'organization_id', 'name', 'email', 'email_confirmed_address');
  if (!user) throw new AppError('NOT_FOUND');
  if (!emailConfirmed(user)) throw new AppError('SIGNING_EMAIL_NOT_CONFIRMED');
  return { userId: user.id, organizationId: user.organization_id, name: user.name, email: user.email, ipAddress: ip };
}

function assertRequiredPlacement(type: SignatureType, placements: readonly PlacementInput[]): void {
  const needed = type.requiredPlacement;
  if (needed && !placements.some((p) => p.kind === needed)) {
    throw new AppError('SIGNING_PLACEMENT_REQUIRED', {
      pointer: '/data/attributes/placements',
      params: { kind: needed },
    });
  }
  if (type.code === 'timestamp' && placements.length > 0) {
    throw new AppError('VALIDATION_FAILED', {
      pointer: '/data/attributes/placements',
      detail: 'a document timestamp has no visible appearance',
    });
  }
}

/** What phase 1 found and phase 2 signs with. */
interface Prepared {
  type: SignatureType;
  /** The two-factor code to use up in phase 3, or null when the task asks for none. */
  codeId: string | null;
  signer: Signer;
  /** The document's latest version when the checks passed: what the first signature is made on. */
  version: DocumentVersionRow;
  /** The e-certificate the type signs with (types with a PIN), opened after its status and PIN were checked. */
  eCertificate: { id: string; certificate: NonNullable<SignatureRequest['eCertificate']> } | null;
}

/** Whether the task needs a two-factor code with this type. */
const needsCode = (step: LockedStep, type: SignatureType) => step.task.two_factor !== 'none' && type.allowsTwoFactor;

/** Phase 1: every refusal, with code and PIN failures committed; what the signature needs. */
async function prepare(
  deps: CoreDeps,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
): Promise<Prepared> {
  const outcome = await deps.knex.transaction(async (trx) => {
    const step = await lockStep(trx, principal, taskId);
    await assertRunnable(trx, principal, step, input.lockVersion);
    const type = typeOf(deps, step);
    const version = await latestVersion(trx, step.document.id);
    assertScanAllowsUse(version);
    const signer = await signerOf(trx, principal, actor.req?.ip ?? null);
    assertRequiredPlacement(type, input.placements ?? []);
    if (type.signsOnBehalf) {
      if (!input.onBehalfOfUserId) {
        throw new AppError('VALIDATION_FAILED', { pointer: '/data/attributes/onBehalfOfUserId' });
      }
      await assertAgentOf(trx, principal.userId, input.onBehalfOfUserId);
    }
    let eCertificate: Prepared['eCertificate'] = null;
    if (type.requiresPin) {
      const opened = await openECertificate(deps, trx, input.onBehalfOfUserId ?? principal.userId, input.pin);
      if ('refusal' in opened) return opened;
      eCertificate = opened;
    }
    const prepared: Prepared = { type, codeId: null, signer, version, eCertificate };
    if (!needsCode(step, type)) return prepared;
    const code = await checkSigningCode(deps, trx, principal.userId, step.task.id, input.code);
    return 'refusal' in code ? code : { ...prepared, codeId: code.codeId };
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome;
}

/**
 * The e-certificate's chain checked now, outside any transaction: a revocation is recorded and refused with
 * E_CERTIFICATE_REVOKED, an unknown status refused with REVOCATION_UNAVAILABLE. signRequest checks again just
 * before signing; that check finds the responses cached.
 */
async function assertECertificateNotRevoked(
  deps: CoreDeps,
  actor: DocumentActor,
  eCertificate: NonNullable<Prepared['eCertificate']>,
): Promise<void> {
  const { key } = eCertificate.certificate;
  const statuses = await deps.signing.revocation.check([key.certificate, ...key.chain]);
  await recordRevocationCheck(deps, actor, eCertificate.id, statuses);
  const refusal = revocationRefusal(statuses, 'user');
  if (refusal) throw refusal.error;
}

/** A signature made on one version, its PDF already in the file store. */
interface Signed {
  base: DocumentVersionRow;
  outcome: SignatureOutcome;
  blob: StoredBlob;
  signedAt: Date;
}

/** Phase 2, with no transaction open: signs `version` and writes the signed PDF to the file store. */
async function signVersion(
  deps: CoreDeps,
  principal: Principal,
  taskId: string,
  input: SignTaskInput,
  prepared: Prepared,
  version: DocumentVersionRow,
): Promise<Signed> {
  const pdf = new Uint8Array(await deps.files.read(version.sha256));
  const placements = input.placements ?? [];
  const signedAt = deps.clock.now();
  const request: SignatureRequest = {
    documentId: version.document_id,
    taskId,
    pdf,
    signer: prepared.signer,
    appearances: await appearancesOf(deps.knex, deps.files, principal.userId, pdf, placements, deps.pdfWork),
    claimedTime: signedAt,
    ...(prepared.eCertificate ? { eCertificate: prepared.eCertificate.certificate } : {}),
  };
  const outcome = await prepared.type.sign(request, deps.signing);
  const blob = await deps.files.put(Buffer.from(outcome.pdf));
  return { base: version, outcome, blob, signedAt };
}

/** Phase 3's checks that the rules phase 1 applied still hold (a plan edit may change them meanwhile). */
async function assertStillSignable(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  step: LockedStep,
  prepared: Prepared,
): Promise<void> {
  const type = typeOf(deps, step);
  if (type.code !== prepared.type.code || needsCode(step, type) !== (prepared.codeId !== null)) {
    throw new AppError('UPDATED_BY_ANOTHER_USER', { detail: "the task's signature rules changed while signing" });
  }
  await signerOf(trx, principal, null);
  if (!prepared.eCertificate) return;
  const row = await trx('e_certificates').where({ id: prepared.eCertificate.id }).forUpdate().first();
  if (!row) throw new AppError('E_CERTIFICATE_NOT_REGISTERED');
  if (row.revoked_at) throw new AppError('E_CERTIFICATE_REVOKED');
  const status = certificateStatus(row, deps.clock.now());
  if (status === 'expired') throw new AppError('E_CERTIFICATE_EXPIRED');
  if (status === 'invalid') throw new AppError('E_CERTIFICATE_INVALID');
}

/**
 * Phase 3: records the signature in one short transaction. Returns null when recorded, or the document's newer
 * latest version when a parallel signer stored one meanwhile (then nothing is written: sign again on it).
 */
async function record(
  deps: CoreDeps,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
  prepared: Prepared,
  signed: Signed,
): Promise<DocumentVersionRow | null> {
  return deps.knex.transaction(async (trx) => {
    const step = await lockStep(trx, principal, taskId);
    await assertRunnable(trx, principal, step, input.lockVersion);
    await assertStillSignable(deps, trx, principal, step, prepared);
    const latest = await latestVersion(trx, step.document.id);
    assertScanAllowsUse(latest);
    if (latest.id !== signed.base.id || latest.sha256 !== signed.base.sha256) return latest;
    const now = deps.clock.now();
    if (prepared.codeId) await consumeSigningCode(trx, prepared.codeId, now);
    await recordSignature(deps, trx, actor, step, input, prepared, signed);
    return null;
  });
}

/** The writes of phase 3: the new version, the ledger row, usage, the long-term schedule, the task's completion. */
async function recordSignature(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  step: LockedStep,
  input: SignTaskInput,
  { type, signer }: Prepared,
  { base, outcome, blob, signedAt }: Signed,
): Promise<void> {
  const now = deps.clock.now();
  const stored = await storeRevision(deps, trx, base, blob, {
    kind: outcome.level === 'document-timestamp' ? 'timestamp' : 'signature',
    padesLevel: outcome.level,
    uploadedBy: signer.userId,
    taskId: step.task.id,
    signatureType: type.code,
    detail: 'signed revision',
  });
  const certificate = outcome.certificate ? new X509Certificate(outcome.certificate) : null;
  await appendSignRecord(
    trx,
    {
      organizationId: step.document.organization_id,
      documentId: step.document.id,
      documentRevision: stored.version,
      signerUserId: signer.userId,
      signerName: signer.name,
      onBehalfOfUserId: outcome.onBehalfOfUserId,
      signatureType: type.code,
      certificateSubject: certificate?.subject.replace(/\n/g, ', ') ?? null,
      certificateSerial: certificate?.serialNumber ?? null,
      certificateFingerprint: outcome.certificate
        ? createHash('sha256').update(outcome.certificate).digest('hex')
        : null,
      signedAt,
      timestampAt: outcome.timestampTime,
      documentHash: stored.sha256,
      ipAddress: signer.ipAddress,
    },
    now,
  );
  await recordUsage(trx, step.document.organization_id, 'signatures', 1, now);
  if (outcome.documentTimestampNotAfter) {
    await scheduleRenewal(deps, trx, step, outcome.timestampTime ?? signedAt, outcome.documentTimestampNotAfter);
  }
  await completeTask(deps, trx, actor, step, 'sign', input.comment, {
    version: stored.version,
    signatureType: type.code,
    padesLevel: outcome.level,
    sha256: stored.sha256,
    ...(outcome.onBehalfOfUserId ? { onBehalfOfUserId: outcome.onBehalfOfUserId } : {}),
  });
}

/** Signs the task (see the phases above); 409 UPDATED_BY_ANOTHER_USER when every attempt lost to a newer version. */
export async function signTask(
  deps: CoreDeps,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
): Promise<void> {
  await deps.signing.warm();
  const prepared = await prepare(deps, principal, actor, taskId, input);
  if (prepared.eCertificate) await assertECertificateNotRevoked(deps, actor, prepared.eCertificate);
  let version = prepared.version;
  for (let attempt = 1; ; attempt++) {
    const signed = await signVersion(deps, principal, taskId, input, prepared, version);
    const newer = await record(deps, principal, actor, taskId, input, prepared, signed);
    if (!newer) return;
    if (attempt >= MAX_ATTEMPTS) {
      throw new AppError('UPDATED_BY_ANOTHER_USER', {
        detail: `the document got a newer version during each of ${MAX_ATTEMPTS} signatures`,
      });
    }
    deps.logger.info({ taskId, version: newer.version }, 'signing again on a newer version of the document');
    version = newer;
  }
}

/** A B-LTA revision: renew its document timestamp `renewalMarginDays` before the TSA certificate expires. */
async function scheduleRenewal(
  deps: CoreDeps,
  trx: Knex.Transaction,
  step: LockedStep,
  timestampAt: Date,
  notAfter: Date,
): Promise<void> {
  const row = {
    organization_id: step.document.organization_id,
    ...scheduleOf(deps, timestampAt, notAfter, deps.clock.now()),
  };
  await trx('long_term_documents')
    .insert({ document_id: step.document.id, ...row })
    .onConflict('document_id')
    .merge(row);
}
