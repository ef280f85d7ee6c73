/*
 * The task editor's writes: the whole plan (replaceTasks, PUT /documents/{id}/tasks) and one task's required flag
 * or role (updateTask). Both are for a user of the workspace owner organization with edit rights, while the
 * document is in progress (or remanded) and before the tasks concerned ran (409 TASKS_LOCKED). Changing who runs
 * a live task or how (its role, assignee, signing) needs the workspace owner's right (rule-changes.ts).
 */
import type { Knex } from 'knex';
import { assertLockVersion, lockedRow, updateWithLock } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { lockFlow } from '../business-flows/complete.ts';
import type { DocumentActor, DocumentRow } from '../documents/model.ts';
import { assertCanEdit, documentAccess, type WorkspaceAccess } from '../workspaces/access.ts';
import { logTaskStep, type TaskRow } from './model.ts';
import { type PageSize, replaceDocumentTasks, resolvePlan, type TaskInput } from './plan.ts';
import { assertMayChangeRules } from './rule-changes.ts';
import { checkTaskPlan } from './rules.ts';

/** Access to edit the plan of a document: owner organization, edit rights, flow not cancelled; rows locked. */
async function lockForEdit(trx: Knex.Transaction, principal: Principal, documentId: string) {
  const { access, flow: seen } = await documentAccess(trx, principal, documentId);
  if (!access.isOwnerOrganization) throw new AppError('WORKSPACE_EDIT_NOT_ALLOWED');
  assertCanEdit(access);
  const flow = await lockFlow(trx, seen.id);
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  const key = { id: documentId, organization_id: access.ownerOrganizationId };
  const document = await lockedRow<DocumentRow>(trx, 'documents', key);
  if (!['draft', 'in_progress', 'remanded'].includes(document.status)) {
    throw new AppError('DOCUMENT_NOT_IN_PROGRESS');
  }
  return { access, document };
}

export async function replaceTasks(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  actor: DocumentActor,
  documentId: string,
  input: { lockVersion: number; tasks: TaskInput[]; pageSizes?: PageSize[] },
): Promise<void> {
  const { access, document } = await lockForEdit(trx, principal, documentId);
  assertLockVersion(document, input.lockVersion);
  const done = await trx('tasks').where({ document_id: documentId, status: 'completed' }).first('id');
  if (done) throw new AppError('TASKS_LOCKED');
  // A new plan starts from its first order, also after a remand to the start; a draft's stays waiting until sent.
  const status = document.status === 'draft' ? ('draft' as const) : ('in_progress' as const);
  const restarted = { ...document, status };
  await replaceDocumentTasks(deps, trx, {
    document: restarted,
    access,
    tasks: input.tasks,
    actor,
    pageSizes: input.pageSizes,
  });
  await trx('documents')
    .where({ id: documentId })
    .update({ status, lock_version: trx.raw('lock_version + 1') });
}

export async function updateTask(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
  input: { lockVersion: number; required?: boolean; roleId?: string | null },
): Promise<void> {
  const found = await trx('tasks').where({ id: taskId }).first('document_id');
  if (!found) throw new AppError('NOT_FOUND');
  const { access, document } = await lockForEdit(trx, principal, found.document_id);
  const key = { id: taskId, organization_id: access.ownerOrganizationId };
  const task = await lockedRow<TaskRow>(trx, 'tasks', key);
  const roleChanged = input.roleId !== undefined && input.roleId !== task.role_id;
  // A task's role decides who may run it: editors may not drop or swap it (their own task's above all).
  if (roleChanged) assertMayChangeRules(access);
  assertLockVersion(task, input.lockVersion);
  const ranAtOrder = await trx('tasks')
    .where({ document_id: document.id, task_order: task.task_order, status: 'completed' })
    .first('id');
  if (!['waiting', 'active'].includes(task.status) || ranAtOrder) throw new AppError('TASKS_LOCKED');
  const patch: Record<string, unknown> = { updated_at: deps.clock.now() };
  if (input.required !== undefined) patch.required = input.required;
  if (input.roleId !== undefined) patch.role_id = input.roleId;
  const changed = { ...task, ...patch } as TaskRow;
  await checkChangedPlan(trx, access, actor, changed);
  await updateWithLock(trx, 'tasks', key, input.lockVersion, patch);
  await logTaskStep(
    deps,
    trx,
    actor,
    document,
    {
      kind: 'task_updated',
      action: 'task.updated',
      at: patch.updated_at as Date,
      taskId,
    },
    {
      before: { required: task.required, roleId: task.role_id },
      after: { required: changed.required, roleId: changed.role_id },
      ...(roleChanged ? { ruleChanged: true } : {}),
    },
  );
}

/** Runs the plan's rules over the document's tasks with one task changed; errors point at the request's fields. */
async function checkChangedPlan(
  trx: Knex.Transaction,
  access: WorkspaceAccess,
  actor: DocumentActor,
  changed: TaskRow,
) {
  const rows = (await trx('tasks')
    .where({ document_id: changed.document_id })
    .whereNot('status', 'cancelled')
    .orderBy(['task_order', 'created_at', 'id'])) as TaskRow[];
  const index = rows.findIndex((r) => r.id === changed.id);
  const inputs = rows.map((r) => inputOf(r.id === changed.id ? changed : r));
  const base = '/data/attributes/tasks';
  const retarget = (errors: FieldError[]) =>
    errors.map((e) => {
      const own = e.pointer.match(new RegExp(`^${base}/${index}/(\\w+)`));
      return { ...e, pointer: own ? `/data/attributes/${own[1]}` : '/data/attributes' };
    });
  let errors: FieldError[];
  try {
    const planned = await resolvePlan(trx, access, inputs, base);
    errors = checkTaskPlan(planned, {
      ownerOrganizationId: access.ownerOrganizationId,
      callerOrganizationId: actor.organizationId,
      pointer: base,
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.fields.length === 0) throw error;
    errors = error.fields;
  }
  if (errors.length > 0) throw AppError.invalid(retarget(errors));
}

function inputOf(row: TaskRow): TaskInput {
  return {
    order: row.task_order,
    type: row.type,
    roleId: row.role_id,
    required: row.required,
    templateId: row.template_id,
    assignee:
      row.assignee_kind === 'group'
        ? { kind: 'group', groupId: row.group_id! }
        : row.assignee_kind === 'organization'
          ? { kind: 'organization', organizationId: row.partner_organization_id! }
          : { kind: 'one_time_user', oneTimeUserId: row.one_time_user_id! },
  };
}
