/*
 * Remanding a document from one of its active tasks back to an earlier order (1 = the start), with a reason.
 * Every task of an order at or after the target goes back to waiting (completed ones are reset), the target
 * order's tasks become active, and the document is `remanded` until that order is completed again (then it is
 * in progress; execute-task.ts). A scan verdict does not block a remand: a malicious file is remanded and
 * uploaded again. The target order's assignees and the document's creator get the document-remanded mail.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { notifyFlowParties } from '../business-flows/notify.ts';
import { queueDocumentEvent } from '../events/flow-events.ts';
import type { DocumentActor } from '../documents/model.ts';
import { activateOrder, logTaskStep, type TaskCaller } from './model.ts';
import { assertRunnable, lockStep, requiredReason, touchDocument } from './step.ts';

export async function remandDocument(
  deps: CoreDeps,
  trx: Knex.Transaction,
  caller: TaskCaller,
  actor: DocumentActor,
  taskId: string,
  input: { reason?: string | null; toOrder: number; lockVersion?: number },
): Promise<void> {
  const step = await lockStep(trx, caller, taskId);
  await assertRunnable(trx, caller, step, input.lockVersion);
  const reason = requiredReason(input.reason);
  const { flow, document, task } = step;
  const toOrder = input.toOrder;
  if (!(toOrder >= 1 && toOrder < task.task_order)) {
    throw new AppError('REMAND_TARGET_INVALID', { pointer: '/data/attributes/toOrder' });
  }
  const now = deps.clock.now();
  await trx('tasks')
    .where({ document_id: document.id })
    .where('task_order', '>=', toOrder)
    .whereNot('status', 'cancelled')
    .update({
      status: 'waiting',
      completed_by: null,
      completed_by_one_time_user_id: null,
      completed_at: null,
      updated_at: now,
      lock_version: trx.raw('lock_version + 1'),
    });
  await touchDocument(trx, document.id, now, { status: 'remanded' });
  const activated = await activateOrder(deps, trx, document, toOrder, { mail: false });
  await logTaskStep(
    deps,
    trx,
    actor,
    document,
    {
      kind: 'remanded',
      action: 'document.remanded',
      at: now,
      taskId: task.id,
      reason,
      toOrder,
    },
    { fromOrder: task.task_order },
  );
  await queueDocumentEvent(deps, trx, 'document.remanded', document.id, {
    task: { id: task.id, type: task.type, order: task.task_order },
    fromOrder: task.task_order,
    toOrder,
  });
  await notifyFlowParties(deps, trx, {
    businessFlowId: flow.id,
    kind: 'document-remanded',
    vars: { documentName: document.name, reason, toOrder: String(toOrder), taskType: task.type },
    only: { taskIds: activated },
    alsoUserIds: [document.created_by],
  });
}
