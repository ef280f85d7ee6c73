/*
 * What every task step starts with: find the task the caller can see, lock its flow, document and task rows (in
 * that order, the order every flow step uses, so parallel steps queue instead of deadlocking), and check that the
 * caller may run it now.
 */
import type { Knex } from 'knex';
import { assertLockVersion, lockedRow } from '../../db/lock.ts';
import { AppError } from '../../http/errors.ts';
import { type FlowRow, lockFlow } from '../business-flows/complete.ts';
import type { DocumentRow } from '../documents/model.ts';
import { documentAccess, type WorkspaceAccess } from '../workspaces/access.ts';
import { isAssignee, type TaskCaller, type TaskRow } from './model.ts';

export interface LockedStep {
  access: WorkspaceAccess;
  flow: FlowRow;
  document: DocumentRow;
  task: TaskRow;
}

/** The task with its flow and document, all three locked; NOT_FOUND when the caller cannot see the task. */
export async function lockStep(trx: Knex.Transaction, caller: TaskCaller, taskId: string): Promise<LockedStep> {
  const found = await trx('tasks').where({ id: taskId }).first('document_id');
  if (!found) throw new AppError('NOT_FOUND');
  const { access, flow: seen } = await documentAccess(trx, caller, found.document_id);
  const flow = await lockFlow(trx, seen.id);
  const key = { organization_id: access.ownerOrganizationId };
  const document = await lockedRow<DocumentRow>(trx, 'documents', { ...key, id: found.document_id });
  const task = await lockedRow<TaskRow>(trx, 'tasks', { ...key, id: taskId });
  return { access, flow, document, task };
}

/**
 * The caller may run the task now: the flow is not cancelled, the task is theirs (403 TASK_NOT_ASSIGNED_TO_YOU),
 * active in the document's current order, and the document in progress or remanded (409 TASK_NOT_EXECUTABLE).
 */
export async function assertRunnable(
  trx: Knex.Transaction,
  caller: TaskCaller,
  step: LockedStep,
  lockVersion?: number,
): Promise<void> {
  const { flow, document, task } = step;
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  if (lockVersion !== undefined) assertLockVersion(task, lockVersion);
  if (!(await isAssignee(trx, caller, task.id))) throw new AppError('TASK_NOT_ASSIGNED_TO_YOU');
  const runnable =
    task.status === 'active' &&
    ['in_progress', 'remanded'].includes(document.status) &&
    document.current_order === task.task_order;
  if (!runnable) throw new AppError('TASK_NOT_EXECUTABLE');
}

/** A blank or missing reason is 422 TASK_REASON_REQUIRED at the reason field. */
export function requiredReason(reason: string | null | undefined): string {
  const text = reason?.trim() ?? '';
  if (!text) throw new AppError('TASK_REASON_REQUIRED', { pointer: '/data/attributes/reason' });
  return text;
}

/** Bumps the document's lockVersion: every task step changes the document's state. */
export async function touchDocument(trx: Knex.Transaction, documentId: string, now: Date, patch = {}) {
  await trx('documents')
    .where({ id: documentId })
    .update({ ...patch, updated_at: now, lock_version: trx.raw('lock_version + 1') });
}
