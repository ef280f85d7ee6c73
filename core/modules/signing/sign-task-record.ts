// Phase 3 of signing a sign task (see sign-task.ts): the record of a signature made, in one short transaction.
import { createHash, X509Certificate } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { StoredBlob } from '../../files/blob-store.ts';
import { assertScanAllowsUse, type DocumentVersionRow, latestVersion } from '../../files/scan.ts';
import { AppError } from '../../http/errors.ts';
import type { SignatureOutcome } from '../../signing/signature-types.ts';
import type { DocumentActor } from '../documents/model.ts';
import type { TaskCaller } from '../tasks/model.ts';
import { appendSignRecord } from '../sign-records/ledger.ts';
import { logTaskCompleted, markTaskCompleted } from '../tasks/execute-task.ts';
import { queueDocumentEvent } from '../events/flow-events.ts';
import { assertRunnable, type LockedStep, lockStep } from '../tasks/step.ts';
import { recordUsage, signatureTypeMetric } from '../usage/counters.ts';
import { consumeSigningCode } from './codes.ts';
import { certificateStatus } from './e-certificates.ts';
import { scheduleOf } from './long-term.ts';
import { storeRevision } from './revisions.ts';
import { needsCode, type Prepared, signerOf, type SignTaskInput, typeOf } from './sign-task-checks.ts';

/** A signature made on one version, its PDF already in the file store. */
export interface Signed {
  base: DocumentVersionRow;
  outcome: SignatureOutcome;
  blob: StoredBlob;
  signedAt: Date;
}

/** Phase 3's checks that the rules phase 1 applied still hold (a plan edit may change them meanwhile). */
async function assertStillSignable(
  deps: CoreDeps,
  trx: Knex.Transaction,
  caller: TaskCaller,
  step: LockedStep,
  prepared: Prepared,
): Promise<void> {
  const type = typeOf(deps, step);
  if (type.code !== prepared.type.code || needsCode(step, type) !== (prepared.codeId !== null)) {
    throw new AppError('UPDATED_BY_ANOTHER_USER', { detail: "the task's signature rules changed while signing" });
  }
  await signerOf(trx, caller, null);
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
export async function record(
  deps: CoreDeps,
  caller: TaskCaller,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
  prepared: Prepared,
  signed: Signed,
): Promise<DocumentVersionRow | null> {
  return deps.knex.transaction(async (trx) => {
    const step = await lockStep(trx, caller, taskId);
    await assertRunnable(trx, caller, step, input.lockVersion);
    await assertStillSignable(deps, trx, caller, step, prepared);
    const latest = await latestVersion(trx, step.document.id);
    assertScanAllowsUse(latest);
    if (latest.id !== signed.base.id || latest.sha256 !== signed.base.sha256) return latest;
    const now = deps.clock.now();
    if (prepared.codeId) await consumeSigningCode(trx, prepared.codeId, now);
    await recordSignature(deps, trx, actor, step, input, prepared, signed);
    return null;
  });
}

/**
 * The writes of phase 3: the new version, the signature.created event, the task's completion, the ledger row, usage,
 * the long-term schedule and the task's step logged with the document moved on.
 */
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
  await queueDocumentEvent(deps, trx, 'signature.created', step.document.id, {
    task: { id: step.task.id, type: step.task.type, order: step.task.task_order },
    signatureType: type.code,
    version: stored.version,
  });
  await markTaskCompleted(deps, trx, actor, step, 'sign');
  // From here to the commit the transaction holds what every other signer of the organization waits for: the
  // ledger's chain lock, the month's usage rows, the operation log's chain lock (see markTaskCompleted). What follows
  // keeps the order it had, so no lock is taken in a new order (a timestamp renewal takes the usage row, then the log).
  const certificate = outcome.certificate ? new X509Certificate(outcome.certificate) : null;
  await appendSignRecord(
    trx,
    {
      organizationId: step.document.organization_id,
      documentId: step.document.id,
      documentRevision: stored.version,
      signerUserId: signer.userId,
      signerName: signer.name,
      signerOneTimeUserId: signer.oneTimeUserId ?? null,
      signerEmail: signer.oneTimeUserId ? signer.email : null,
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
  const organizationId = step.document.organization_id;
  await recordUsage(trx, organizationId, 'signatures', 1, now);
  await recordUsage(trx, organizationId, signatureTypeMetric(type.code), 1, now);
  // A signature timestamp (B-T and above, and the timestamp-only type's) and a B-LTA's document timestamp.
  const timestamps = Number(outcome.timestampTime !== null) + Number(outcome.documentTimestampNotAfter !== null);
  await recordUsage(trx, organizationId, 'timestamps', timestamps, now);
  if (outcome.documentTimestampNotAfter) {
    await scheduleRenewal(deps, trx, step, outcome.timestampTime ?? signedAt, outcome.documentTimestampNotAfter);
  }
  await logTaskCompleted(deps, trx, actor, step, 'sign', input.comment, {
    version: stored.version,
    signatureType: type.code,
    padesLevel: outcome.level,
    sha256: stored.sha256,
    ...(outcome.onBehalfOfUserId ? { onBehalfOfUserId: outcome.onBehalfOfUserId } : {}),
  });
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
