/*
 * Approving or reading a task, and what follows: when every required task of the current order is completed, the
 * order's optional tasks still open are skipped and the next order becomes active (task-assigned mail); after the
 * last order the document completes and its flow may auto-complete. A remanded document is back in progress once
 * the order it was remanded to is done.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { latestVersion, assertScanAllowsUse } from '../../files/scan.ts';
import { autoCompleteIfDone, type FlowRow } from '../business-flows/complete.ts';
import type { DocumentActor, DocumentRow } from '../documents/model.ts';
import { queueDocumentCompleted } from '../documents/completed-event.ts';
import { queueDocumentEvent } from '../events/flow-events.ts';
import { activateOrder, logTaskStep, type TaskCaller } from './model.ts';
import { assertRunnable, type LockedStep, lockStep, touchDocument } from './step.ts';

export type TaskAction = 'approve' | 'read' | 'sign';

const STEP = {
  approve: { kind: 'task_approved', action: 'task.approved' },
  read: { kind: 'task_read', action: 'task.read' },
  sign: { kind: 'task_signed', action: 'task.signed' },
} as const;

export async function executeTask(
  deps: CoreDeps,
  trx: Knex.Transaction,
  caller: TaskCaller,
  actor: DocumentActor,
  taskId: string,
  action: Exclude<TaskAction, 'sign'>,
  input: { lockVersion?: number; comment?: string | null },
): Promise<void> {
  const step = await lockStep(trx, caller, taskId);
  await assertRunnable(trx, caller, step, input.lockVersion);
  if (step.task.type !== action) throw new AppError('TASK_TYPE_MISMATCH');
  assertScanAllowsUse(await latestVersion(trx, step.document.id));
  await completeTask(deps, trx, actor, step, action, input.comment, {});
}

/**
 * Completes the locked, runnable task of `step` (approved, read or signed), logs it, and moves the document on.
 * `details` go into the operation log beside the order (a signature's version and type).
 */
export async function completeTask(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  step: LockedStep,
  action: TaskAction,
  commentInput: string | null | undefined,
  details: Record<string, unknown>,
): Promise<void> {
  await markTaskCompleted(deps, trx, actor, step, action);
  await logTaskCompleted(deps, trx, actor, step, action, commentInput, details);
}

/**
 * The first half of completeTask: the task's row and its task.executed event, which take no lock beyond the rows
 * lockStep holds. A signature does this before it appends to the organization's ledger, so the part of its
 * transaction that holds organization-wide locks (the ledger's and the operation log's chains, the month's usage
 * rows), and so queues every other signer of the organization, is as short as it can be.
 */
export async function markTaskCompleted(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  step: LockedStep,
  action: TaskAction,
): Promise<void> {
  const { document, task } = step;
  const now = deps.clock.now();
  await trx('tasks')
    .where({ id: task.id })
    .update({
      status: 'completed',
      completed_by: actor.userId,
      completed_by_one_time_user_id: actor.oneTimeUser?.id ?? null,
      completed_at: now,
      updated_at: now,
      lock_version: trx.raw('lock_version + 1'),
    });
  await queueDocumentEvent(deps, trx, 'task.executed', document.id, {
    task: { id: task.id, type: task.type, order: task.task_order },
    action,
  });
}

/** The second half of completeTask, after markTaskCompleted: the step logged, and the document moved on. */
export async function logTaskCompleted(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  step: LockedStep,
  action: TaskAction,
  commentInput: string | null | undefined,
  details: Record<string, unknown>,
): Promise<void> {
  const { flow, document, task } = step;
  const now = deps.clock.now();
  const comment = commentInput?.trim() || null;
  await logTaskStep(
    deps,
    trx,
    actor,
    document,
    { ...STEP[action], at: now, taskId: task.id, reason: comment },
    { order: task.task_order, ...details },
  );
  await advanceIfOrderDone(deps, trx, actor, flow, document);
  await touchDocument(trx, document.id, now);
}

/** Moves the document on when its current order has no required task left open. */
async function advanceIfOrderDone(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  flow: FlowRow,
  document: DocumentRow,
): Promise<void> {
  const order = document.current_order!;
  const open = await trx('tasks')
    .where({ document_id: document.id, task_order: order, status: 'active', required: true })
    .first('id');
  if (open) return;
  const now = deps.clock.now();
  await trx('tasks')
    .where({ document_id: document.id, task_order: order, status: 'active' })
    .update({ status: 'skipped', updated_at: now, lock_version: trx.raw('lock_version + 1') });
  const [{ next }] = (await trx('tasks')
    .where({ document_id: document.id })
    .where('task_order', '>', order)
    .whereNot('status', 'cancelled')
    .min({ next: 'task_order' })) as [{ next: number | null }];
  if (next !== null && next !== undefined) {
    await trx('documents').where({ id: document.id }).update({ status: 'in_progress' });
    await activateOrder(deps, trx, document, Number(next));
    return;
  }
  await trx('documents')
    .where({ id: document.id })
    .update({ status: 'completed', completed_at: now, current_order: null, updated_at: now });
  await logTaskStep(deps, trx, actor, document, { kind: 'completed', action: 'document.completed', at: now });
  await queueDocumentCompleted(deps, trx, document.id);
  await queueDocumentEvent(deps, trx, 'document.completed', document.id);
  await autoCompleteIfDone(deps, trx, flow.id, {
    userId: actor.userId,
    organizationId: actor.organizationId,
    req: actor.req,
  });
}
