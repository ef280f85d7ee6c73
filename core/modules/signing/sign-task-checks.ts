// Phase 1 of signing a sign task (see sign-task.ts): the checks that may refuse, and what the signature needs.
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { assertScanAllowsUse, type DocumentVersionRow, latestVersion } from '../../files/scan.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { revocationRefusal } from '../../signing/revocation.ts';
import type { SignatureRequest, SignatureType, Signer } from '../../signing/signature-types.ts';
import type { DocumentActor } from '../documents/model.ts';
import { isGuestCaller, type TaskCaller } from '../tasks/model.ts';
import { assertRunnable, type LockedStep, lockStep } from '../tasks/step.ts';
import { checkSigningCode } from './codes.ts';
import { assertAgentOf, openECertificate, recordRevocationCheck } from './e-certificates.ts';
import { emailConfirmed } from './email-confirmation.ts';
import { type PlacementInput, type ResolvedPlacement, resolvePlacements } from './placements.ts';

export interface SignTaskInput {
  lockVersion?: number;
  comment?: string | null;
  placements?: PlacementInput[];
  code?: string;
  pin?: string;
  onBehalfOfUserId?: string;
}

/** The task's signature type; a type whose plugin is off is 409 SIGNATURE_TYPE_UNAVAILABLE. */
export function typeOf(deps: CoreDeps, step: LockedStep): SignatureType {
  if (step.task.type !== 'sign') throw new AppError('TASK_TYPE_MISMATCH');
  return deps.signatureTypes.get(step.task.signature_type ?? 'operator');
}

/**
 * Who signs: the member, whose e-mail address must be confirmed, or the one-time user, whose address the code they
 * signed in with proved (no confirmation step).
 */
export async function signerOf(trx: Knex.Transaction, caller: TaskCaller, ip: string | null): Promise<Signer> {
  if (isGuestCaller(caller)) {
    const guest = await trx('one_time_users').where({ id: caller.oneTimeUserId }).first('id', 'name', 'email');
    if (!guest?.email) throw new AppError('NOT_FOUND');
    return {
      userId: null,
      oneTimeUserId: guest.id,
      organizationId: caller.organizationId,
      name: guest.name ?? guest.email,
      email: guest.email,
      ipAddress: ip,
    };
  }
  const principal = caller;
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
export interface Prepared {
  type: SignatureType;
  /** The two-factor code to use up in phase 3, or null when the task asks for none. */
  codeId: string | null;
  signer: Signer;
  /** The document's latest version when the checks passed: what the first signature is made on. */
  version: DocumentVersionRow;
  /** The placements with the sender's fields resolved to their pages and rectangles. */
  placements: ResolvedPlacement[];
  /** The e-certificate the type signs with (types with a PIN), opened after its status and PIN were checked. */
  eCertificate: { id: string; certificate: NonNullable<SignatureRequest['eCertificate']> } | null;
}

/** Whether the task needs a two-factor code with this type. */
export const needsCode = (step: LockedStep, type: SignatureType) =>
  step.task.two_factor !== 'none' && type.allowsTwoFactor;

/** The member a type signing with an e-certificate needs: a one-time user has none (SIGNATURE_TYPE_UNAVAILABLE). */
function certificateHolder(caller: TaskCaller): Principal {
  if (isGuestCaller(caller)) throw new AppError('SIGNATURE_TYPE_UNAVAILABLE');
  return caller;
}

/** Phase 1: every refusal, with code and PIN failures committed; what the signature needs. */
export async function prepare(
  deps: CoreDeps,
  caller: TaskCaller,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
): Promise<Prepared> {
  const outcome = await deps.knex.transaction(async (trx) => {
    const step = await lockStep(trx, caller, taskId);
    await assertRunnable(trx, caller, step, input.lockVersion);
    const type = typeOf(deps, step);
    const version = await latestVersion(trx, step.document.id);
    assertScanAllowsUse(version);
    const signer = await signerOf(trx, caller, actor.req?.ip ?? null);
    const placements = await resolvePlacements(trx, step.task, input.placements ?? []);
    assertRequiredPlacement(type, placements);
    const principal = type.signsOnBehalf || type.requiresPin ? certificateHolder(caller) : null;
    if (principal && type.signsOnBehalf) {
      if (!input.onBehalfOfUserId) {
        throw new AppError('VALIDATION_FAILED', { pointer: '/data/attributes/onBehalfOfUserId' });
      }
      await assertAgentOf(trx, principal.userId, input.onBehalfOfUserId);
    }
    let eCertificate: Prepared['eCertificate'] = null;
    if (principal && type.requiresPin) {
      const opened = await openECertificate(deps, trx, input.onBehalfOfUserId ?? principal.userId, input.pin);
      if ('refusal' in opened) return opened;
      eCertificate = opened;
    }
    const prepared: Prepared = { type, codeId: null, signer, version, placements, eCertificate };
    if (!needsCode(step, type)) return prepared;
    const code = await checkSigningCode(deps, trx, caller, step.task.id, input.code);
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
export async function assertECertificateNotRevoked(
  deps: CoreDeps,
  actor: DocumentActor,
  eCertificate: NonNullable<Prepared['eCertificate']>,
): Promise<void> {
  const { key } = eCertificate.certificate;
  const statuses = await deps.signing.revocation.check([key.certificate, ...key.chain]);
  // Only members sign with an e-certificate (prepare refuses one-time users), so the actor is a user.
  await recordRevocationCheck(deps, { userId: actor.userId!, req: actor.req }, eCertificate.id, statuses);
  const refusal = revocationRefusal(statuses, 'user');
  if (refusal) throw refusal.error;
}
