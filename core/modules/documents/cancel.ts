/*
 * Cancelling a document (cancelDocument): a reason is required, the data and every version are kept, its open
 * tasks are cancelled and cannot be resumed. The flow is locked first (the order every flow step uses), and may
 * auto-complete now that this document no longer counts. Every party of the flow gets the cancel mail. In a draft flow
 * this is how a document is taken out of the draft: no mail, and sending leaves it out.
 */
import type { Knex } from 'knex';
import { assertLockVersion, lockedRow } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { autoCompleteIfDone, lockFlow } from '../business-flows/complete.ts';
import { notifyFlowParties } from '../business-flows/notify.ts';
import { queueDocumentEvent } from '../events/flow-events.ts';
import { assertCanEdit, documentAccess } from '../workspaces/access.ts';
import { addDocumentEvent, type DocumentActor, type DocumentRow, logDocumentChange } from './model.ts';

export async function cancelDocument(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  actor: DocumentActor,
  documentId: string,
  input: { lockVersion: number; reason?: string },
): Promise<void> {
  const reason = input.reason?.trim() ?? '';
  if (!reason) throw new AppError('DOCUMENT_CANCEL_COMMENT_REQUIRED', { pointer: '/data/attributes/reason' });
  const { access, flow: seen } = await documentAccess(trx, principal, documentId);
  assertCanEdit(access);
  const flow = await lockFlow(trx, seen.id);
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  const key = { id: documentId, organization_id: access.ownerOrganizationId };
  const document = await lockedRow<DocumentRow>(trx, 'documents', key);
  assertLockVersion(document, input.lockVersion);
  if (!['draft', 'in_progress', 'remanded'].includes(document.status)) throw new AppError('DOCUMENT_NOT_IN_PROGRESS');
  const now = deps.clock.now();
  await trx('documents')
    .where(key)
    .update({
      status: 'cancelled',
      cancel_comment: reason,
      current_order: null,
      updated_at: now,
      lock_version: trx.raw('lock_version + 1'),
    });
  const cancelledTasks = await trx('tasks')
    .where({ document_id: documentId })
    .whereIn('status', ['waiting', 'active'])
    .update({ status: 'cancelled', updated_at: now, lock_version: trx.raw('lock_version + 1') });
  await addDocumentEvent(trx, document, actor, { kind: 'cancelled', reason, at: now });
  await logDocumentChange(deps, trx, actor, document, 'document.cancelled', {
    reason,
    before: document.status,
    cancelledTasks,
  });
  await queueDocumentEvent(deps, trx, 'document.cancelled', documentId, { before: document.status });
  // Taking a document out of a draft mails nobody: nothing was sent yet (sendBusinessFlow skips it).
  if (flow.status === 'draft') return;
  await notifyFlowParties(deps, trx, {
    businessFlowId: flow.id,
    kind: 'document-cancelled',
    vars: { documentName: document.name, reason, link: `${deps.config.publicUrl}/documents/${documentId}` },
    alsoUserIds: [document.created_by],
  });
  await autoCompleteIfDone(deps, trx, flow.id, {
    userId: actor.userId,
    organizationId: actor.organizationId,
    req: actor.req,
  });
}
