/*
 * Status changes made by hand: complete (mails every party), back to incomplete, and cancel (keeps every row; the
 * unfinished documents and their open tasks are cancelled with the same reason). Only users of the workspace owner
 * organization with edit rights change a flow's status; partners get 403 FORBIDDEN.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { completeBusinessFlow, logFlowChange } from './complete.ts';
import { queueFlowEvent } from '../events/flow-events.ts';
import { actorOf, lockForChange } from './update-business-flow.ts';

async function ownerLock(trx: Knex.Transaction, principal: Principal, flowId: string, lockVersion: number) {
  const locked = await lockForChange(trx, principal, flowId, lockVersion);
  if (!locked.access.isOwnerOrganization) throw new AppError('FORBIDDEN');
  return locked;
}

/** Manual completion: from in progress or incomplete. */
export async function completeByHand(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  flowId: string,
  lockVersion: number,
) {
  await ownerLock(trx, principal, flowId, lockVersion);
  await completeBusinessFlow(deps, trx, flowId, actorOf(principal, req), 'manual');
}

/** Back to incomplete, from complete or in progress; completedAt is cleared. */
export async function markIncomplete(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  flowId: string,
  lockVersion: number,
) {
  const { flow } = await ownerLock(trx, principal, flowId, lockVersion);
  if (flow.status === 'incomplete') throw new AppError('BUSINESS_FLOW_STATUS_INVALID');
  await trx('business_flows')
    .where({ id: flowId })
    .update({
      status: 'incomplete',
      completed_at: null,
      updated_at: deps.clock.now(),
      lock_version: trx.raw('lock_version + 1'),
    });
  await logFlowChange(deps, trx, actorOf(principal, req), flow, 'business_flow.marked_incomplete', {
    before: flow.status,
  });
}

/** Cancels the flow and its unfinished documents with a required reason; nothing is deleted. */
export async function cancelFlow(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  flowId: string,
  input: { lockVersion: number; comment: string },
) {
  const comment = input.comment.trim();
  if (!comment)
    throw AppError.invalid([{ code: 'DOCUMENT_CANCEL_COMMENT_REQUIRED', pointer: '/data/attributes/comment' }]);
  const { flow } = await ownerLock(trx, principal, flowId, input.lockVersion);
  const now = deps.clock.now();
  await trx('business_flows')
    .where({ id: flowId })
    .update({
      status: 'cancelled',
      cancel_comment: comment,
      cancelled_at: now,
      updated_at: now,
      lock_version: trx.raw('lock_version + 1'),
    });
  const documents: { id: string }[] = await trx('documents')
    .where({ business_flow_id: flowId })
    .whereNotIn('status', ['completed', 'cancelled'])
    .orderBy('id')
    .forUpdate()
    .select('id');
  const ids = documents.map((d) => d.id);
  if (ids.length > 0) {
    await trx('documents')
      .whereIn('id', ids)
      .update({
        status: 'cancelled',
        cancel_comment: comment,
        current_order: null,
        updated_at: now,
        lock_version: trx.raw('lock_version + 1'),
      });
    await trx('tasks')
      .whereIn('document_id', ids)
      .whereIn('status', ['waiting', 'active'])
      .update({ status: 'cancelled', updated_at: now, lock_version: trx.raw('lock_version + 1') });
    await trx('document_events').insert(
      ids.map((documentId) => ({
        organization_id: flow.organization_id,
        document_id: documentId,
        kind: 'cancelled',
        reason: comment,
        actor_user_id: principal.userId,
        actor_organization_id: principal.organizationId,
        created_at: now,
      })),
    );
  }
  await logFlowChange(deps, trx, actorOf(principal, req), flow, 'business_flow.cancelled', {
    before: flow.status,
    comment,
    cancelledDocumentIds: ids,
  });
  await queueFlowEvent(deps, trx, 'business_flow.cancelled', flowId, { cancelledDocumentIds: ids });
}
