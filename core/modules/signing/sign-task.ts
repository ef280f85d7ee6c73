/*
 * Signing a sign task. Two transactions:
 *  1. checks that may refuse: the task is runnable and a sign task of an available type, the document's latest
 *     version scanned clean, the signer's e-mail confirmed, the placements valid, the two-factor code or the
 *     e-certificate PIN right. Wrong codes and PINs are counted there and the count is committed before the
 *     refusal is thrown.
 *  Between them, for types signing with a user's e-certificate, the certificate's chain is checked for revocation
 *  (CRL or OCSP: network, so outside any transaction): a revocation found is recorded on the e-certificate in a
 *  transaction of its own and refuses with E_CERTIFICATE_REVOKED; an unknown status refuses with
 *  REVOCATION_UNAVAILABLE.
 *  2. the signature: the rows are locked again, the code is used up, the type signs the latest version (TSA call
 *     included), the signed PDF is written to the file store (blob first), then the new version, the sign record
 *     ledger row, usage, the task's completion and the long-term schedule are written in one transaction. Any
 *     failure (TSA down, a concurrent step) leaves no row, no version and no ledger entry.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { assertScanAllowsUse, latestVersion } from '../../files/scan.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import type { SignatureRequest, SignatureType, Signer } from '../../signing/signature-types.ts';
import { type DocumentActor } from '../documents/model.ts';
import { appendSignRecord } from '../sign-records/ledger.ts';
import { completeTask } from '../tasks/execute-task.ts';
import { assertRunnable, type LockedStep, lockStep } from '../tasks/step.ts';
import { recordUsage } from '../usage/counters.ts';
import { checkSigningCode, consumeSigningCode } from './codes.ts';
import { revocationRefusal } from '../../signing/revocation.ts';
import { assertAgentOf, openECertificate, recordRevocationCheck } from './e-certificates.ts';
import { emailConfirmed } from './email-confirmation.ts';
import { scheduleOf } from './long-term.ts';
import { storeRevision } from './revisions.ts';
import { appearancesOf, type PlacementInput } from './placements.ts';

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

interface Prepared {
  codeId: string | null;
  /** The e-certificate the type signs with (types with a PIN): its row and chain, leaf first. */
  eCertificate: { id: string; chain: Uint8Array[] } | null;
}

/** Phase 1: every refusal, with code and PIN failures committed. Returns the code to use up and the e-certificate. */
async function prepare(deps: CoreDeps, principal: Principal, taskId: string, input: SignTaskInput): Promise<Prepared> {
  const outcome = await deps.knex.transaction(async (trx) => {
    const step = await lockStep(trx, principal, taskId);
    await assertRunnable(trx, principal, step, input.lockVersion);
    const type = typeOf(deps, step);
    assertScanAllowsUse(await latestVersion(trx, step.document.id));
    await signerOf(trx, principal, null);
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
      const { key } = opened.certificate;
      eCertificate = { id: opened.id, chain: [key.certificate, ...key.chain] };
    }
    if (step.task.two_factor !== 'none' && type.allowsTwoFactor) {
      const code = await checkSigningCode(deps, trx, principal.userId, step.task.id, input.code);
      return 'refusal' in code ? code : { ...code, eCertificate };
    }
    return { codeId: null, eCertificate };
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
  const statuses = await deps.signing.revocation.check(eCertificate.chain);
  await recordRevocationCheck(deps, actor, eCertificate.id, statuses);
  const refusal = revocationRefusal(statuses, 'user');
  if (refusal) throw refusal.error;
}

export async function signTask(
  deps: CoreDeps,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
): Promise<void> {
  await deps.signing.warm();
  const { codeId, eCertificate } = await prepare(deps, principal, taskId, input);
  if (eCertificate) await assertECertificateNotRevoked(deps, actor, eCertificate);
  await deps.knex.transaction(async (trx) => {
    const step = await lockStep(trx, principal, taskId);
    await assertRunnable(trx, principal, step, input.lockVersion);
    const type = typeOf(deps, step);
    const now = deps.clock.now();
    if (codeId) await consumeSigningCode(trx, codeId, now);
    const signer = await signerOf(trx, principal, actor.req?.ip ?? null);
    const version = await latestVersion(trx, step.document.id);
    assertScanAllowsUse(version);
    const pdf = new Uint8Array(await deps.files.read(version.sha256));
    const request: SignatureRequest = {
      trx,
      documentId: step.document.id,
      taskId: step.task.id,
      pdf,
      signer,
      appearances: await appearancesOf(trx, deps.files, principal.userId, pdf, input.placements ?? []),
      claimedTime: now,
    };
    if (type.requiresPin) {
      const opened = await openECertificate(deps, trx, input.onBehalfOfUserId ?? principal.userId, input.pin);
      if ('refusal' in opened) throw opened.refusal;
      request.eCertificate = opened.certificate;
    }
    const outcome = await type.sign(request, deps.signing);
    const stored = await storeRevision(deps, trx, version, outcome.pdf, {
      kind: outcome.level === 'document-timestamp' ? 'timestamp' : 'signature',
      padesLevel: outcome.level,
      uploadedBy: principal.userId,
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
        signedAt: now,
        timestampAt: outcome.timestampTime,
        documentHash: stored.sha256,
        ipAddress: signer.ipAddress,
      },
      now,
    );
    await recordUsage(trx, step.document.organization_id, 'signatures', 1, now);
    if (outcome.documentTimestampNotAfter) {
      await scheduleRenewal(deps, trx, step, outcome.timestampTime ?? now, outcome.documentTimestampNotAfter);
    }
    await completeTask(deps, trx, actor, step, 'sign', input.comment, {
      version: stored.version,
      signatureType: type.code,
      padesLevel: outcome.level,
      sha256: stored.sha256,
      ...(outcome.onBehalfOfUserId ? { onBehalfOfUserId: outcome.onBehalfOfUserId } : {}),
    });
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
