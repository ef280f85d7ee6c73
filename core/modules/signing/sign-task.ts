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
 * Phase 1 lives in sign-task-checks.ts, phase 3 in sign-task-record.ts; this file makes the signature and retries.
 */
import type { CoreDeps } from '../../deps.ts';
import type { DocumentVersionRow } from '../../files/scan.ts';
import { AppError } from '../../http/errors.ts';
import type { SignatureRequest } from '../../signing/signature-types.ts';
import type { DocumentActor } from '../documents/model.ts';
import type { TaskCaller } from '../tasks/model.ts';
import { appearancesOf } from './placements.ts';
import { assertECertificateNotRevoked, prepare, type Prepared, type SignTaskInput } from './sign-task-checks.ts';
import { record, type Signed } from './sign-task-record.ts';

export type { SignTaskInput } from './sign-task-checks.ts';

/** Signatures made in all, when parallel signers keep storing newer versions first. */
export const MAX_ATTEMPTS = 3;

/** Phase 2, with no transaction open: signs `version` and writes the signed PDF to the file store. */
async function signVersion(
  deps: CoreDeps,
  taskId: string,
  input: SignTaskInput,
  prepared: Prepared,
  version: DocumentVersionRow,
): Promise<Signed> {
  // A view of the bytes read, not a copy: nothing else holds them, and signPdf hands the worker its own copy.
  const read = await deps.files.read(version.sha256);
  const pdf = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  const { placements } = prepared;
  const signedAt = deps.clock.now();
  const request: SignatureRequest = {
    documentId: version.document_id,
    taskId,
    pdf,
    signer: prepared.signer,
    appearances: await appearancesOf(deps.knex, deps.files, prepared.signer.userId, pdf, placements, deps.pdfWork),
    claimedTime: signedAt,
    ...(prepared.eCertificate ? { eCertificate: prepared.eCertificate.certificate } : {}),
  };
  const outcome = await prepared.type.sign(request, deps.signing);
  // Buffer.from(view.buffer, …) shares the signed bytes (a megabyte-sized copy per signature otherwise).
  const blob = await deps.files.put(Buffer.from(outcome.pdf.buffer, outcome.pdf.byteOffset, outcome.pdf.byteLength));
  return { base: version, outcome, blob, signedAt };
}

/** Signs the task (see the phases above); 409 UPDATED_BY_ANOTHER_USER when every attempt lost to a newer version. */
export async function signTask(
  deps: CoreDeps,
  caller: TaskCaller,
  actor: DocumentActor,
  taskId: string,
  input: SignTaskInput,
): Promise<void> {
  await deps.signing.warm();
  const prepared = await prepare(deps, caller, actor, taskId, input);
  if (prepared.eCertificate) await assertECertificateNotRevoked(deps, actor, prepared.eCertificate);
  let version = prepared.version;
  for (let attempt = 1; ; attempt++) {
    const signed = await signVersion(deps, taskId, input, prepared, version);
    const newer = await record(deps, caller, actor, taskId, input, prepared, signed);
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
