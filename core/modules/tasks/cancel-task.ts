/*
 * Cancelling a document from one of its active tasks, with a reason: the document becomes `cancelled` with the
 * reason as its cancel comment, all its open tasks are cancelled (nothing is deleted), every party of the flow gets
 * the document-cancelled mail, and the flow may auto-complete now that this document no longer counts. A scan
 * verdict does not block it.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { autoCompleteIfDone } from '../business-flows/complete.ts';
import { notifyFlowParties } from '../business-flows/notify.ts';
import type { DocumentActor } from '../documents/model.ts';
import { queueDocumentEvent } from '../events/flow-events.ts';
import { logTaskStep } from './model.ts';
import { assertRunnable, lockStep, requiredReason, touchDocument } from './step.ts';

export async function cancelTask(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
  input: { reason?: string | null; lockVersion?: number },
): Promise<void> {
  const step = await lockStep(trx, principal, taskId);
  await assertRunnable(trx, principal, step, input.lockVersion);
  const reason = requiredReason(input.reason);
  const { flow, document, task } = step;
  const now = deps.clock.now();
  await touchDocument(trx, document.id, now, { status: 'cancelled', cancel_comment: reason, current_order: null });
  const cancelled = await trx('tasks')
    .where({ document_id: document.id })
    .whereIn('status', ['waiting', 'active'])
    .update({ status: 'cancelled', updated_at: now, lock_version: trx.raw('lock_version + 1') });
  await logTaskStep(
    deps,
    trx,
    actor,
    document,
    { kind: 'cancelled', action: 'document.cancelled', at: now, taskId: task.id, reason },
    { before: document.status, cancelledTasks: cancelled },
  );
  await queueDocumentEvent(deps, trx, 'document.cancelled', document.id, {
    before: document.status,
    task: { id: task.id, type: task.type, order: task.task_order },
  });
  await notifyFlowParties(deps, trx, {
    businessFlowId: flow.id,
    kind: 'document-cancelled',
    vars: { documentName: document.name, reason },
    alsoUserIds: [document.created_by],
  });
  await autoCompleteIfDone(deps, trx, flow.id, {
    userId: actor.userId,
    organizationId: actor.organizationId,
    req: actor.req,
  });
}
