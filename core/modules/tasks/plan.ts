/*
 * A document's whole task plan, replaced at once (the task editor, and documents created from a template):
 *
 *   replaceDocumentTasks(deps, trx, { document, access, tasks, actor }) -> TaskRow[]
 *
 * Assignees are resolved against the workspace: a group must be a group of the owner organization that takes part
 * in the workspace, a partner organization or a one-time user must take part in it (422
 * TASK_ASSIGNEE_NOT_PARTICIPANT); a role must be one of the owner organization (group tasks only; partner and
 * one-time user tasks take no role); a one-time user signs only with a type that needs no e-certificate and gets
 * codes by e-mail only (422 TASK_ASSIGNEE_CANNOT_USE); unknown ids are 422
 * REFERENCE_NOT_FOUND with a pointer. Then the spec's rules run (rules.ts). Replacing a live plan with one that changes
 * who runs a task or how needs the workspace owner's right (rule-changes.ts). The old rows are replaced, and when the
 * document is in progress its first order becomes active (mail task-assigned to its assignees).
 * The caller holds the flow and document row locks; locking and lockVersion checks are the caller's.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import type { DocumentActor, DocumentRow } from '../documents/model.ts';
import type { WorkspaceAccess } from '../workspaces/access.ts';
import { activateOrder, logTaskStep, type TaskRow } from './model.ts';
import { checkPlanReplacement } from './rule-changes.ts';
import { checkTaskPlan, type PlannedTask, type TaskPermissions, type TaskType } from './rules.ts';

/** One task as the API (and document templates) describe it. */
export interface TaskInput {
  order: number;
  type: TaskType;
  roleId?: string | null;
  assignee:
    | { kind: 'group'; groupId: string }
    | { kind: 'organization'; organizationId: string }
    | { kind: 'one_time_user'; oneTimeUserId: string };
  required: boolean;
  templateId?: string | null;
  /** Sign tasks: a registered signature type (default operator). */
  signatureType?: string | null;
  /** Sign tasks of business-operator types: a two-factor code before signing. */
  twoFactor?: 'none' | 'sms' | 'email';
}

export interface ReplaceTasksInput {
  document: Pick<DocumentRow, 'id' | 'organization_id' | 'business_flow_id' | 'status' | 'name'>;
  access: WorkspaceAccess;
  tasks: TaskInput[] | unknown[];
  actor: DocumentActor;
  pointer?: string;
}

export async function replaceDocumentTasks(
  deps: CoreDeps,
  trx: Knex.Transaction,
  input: ReplaceTasksInput,
): Promise<TaskRow[]> {
  const { document, access, actor } = input;
  const tasks = input.tasks as TaskInput[];
  const base = input.pointer ?? '/data/attributes/tasks';
  const signing = signingOf(deps, tasks, base);
  const planned = await resolvePlan(trx, access, tasks, base);
  const errors = checkTaskPlan(planned, {
    ownerOrganizationId: access.ownerOrganizationId,
    callerOrganizationId: actor.organizationId,
    pointer: base,
  });
  if (errors.length > 0) throw AppError.invalid(errors);
  const now = deps.clock.now();
  const newRows = planned.map((task, i) => ({ ...taskRow(document, task, now), ...signing[i]! }));
  const ruleChange = await checkPlanReplacement(trx, access, document.id, newRows);
  await trx('tasks').where({ document_id: document.id }).delete();
  const rows = newRows.length ? ((await trx('tasks').insert(newRows).returning('*')) as TaskRow[]) : [];
  const active = document.status === 'in_progress' && rows.length > 0;
  await trx('documents')
    .where({ id: document.id })
    .update({ current_order: active ? 1 : null, updated_at: now });
  await logTaskStep(
    deps,
    trx,
    actor,
    document,
    { kind: 'tasks_replaced', action: 'document.tasks_replaced', at: now },
    // Replacing a live plan logs every task's rules before and after (who runs each task and how).
    { tasks: tasks.length, ...ruleChange },
  );
  if (active) await activateOrder(deps, trx, document, 1);
  return trx('tasks').where({ document_id: document.id }).orderBy(['task_order', 'created_at', 'id']);
}

function taskRow(document: ReplaceTasksInput['document'], task: PlannedTask, now: Date) {
  return {
    organization_id: document.organization_id,
    document_id: document.id,
    task_order: task.order,
    type: task.type,
    role_id: task.roleId ?? null,
    assignee_kind: task.assignee.kind,
    group_id: task.assignee.kind === 'group' ? task.assignee.groupId : null,
    partner_organization_id: task.assignee.kind === 'organization' ? task.assignee.organizationId : null,
    one_time_user_id: task.assignee.kind === 'one_time_user' ? task.assignee.oneTimeUserId : null,
    required: task.required,
    template_id: task.templateId || null,
    status: 'waiting',
    created_at: now,
    updated_at: now,
  };
}

/**
 * The signature type and two-factor channel of each task: sign tasks default to the business-operator signature;
 * a type no plugin provides is SIGNATURE_TYPE_UNAVAILABLE; other task types and types that take a PIN accept
 * neither (VALIDATION_FAILED). A one-time user has no e-certificate and no phone on file: a type with a PIN or a
 * proxy, or SMS codes, is TASK_ASSIGNEE_CANNOT_USE.
 */
function signingOf(
  deps: CoreDeps,
  tasks: TaskInput[],
  base: string,
): { signature_type: string | null; two_factor: 'none' | 'sms' | 'email' }[] {
  const errors: FieldError[] = [];
  const rows = tasks.map((task, i) => {
    const at = `${base}/${i}`;
    const twoFactor = task.twoFactor ?? 'none';
    if (task.type !== 'sign') {
      if (task.signatureType) errors.push({ code: 'VALIDATION_FAILED', pointer: `${at}/signatureType` });
      if (twoFactor !== 'none') errors.push({ code: 'VALIDATION_FAILED', pointer: `${at}/twoFactor` });
      return { signature_type: null, two_factor: 'none' as const };
    }
    const code = task.signatureType ?? 'operator';
    const guest = task.assignee.kind === 'one_time_user';
    const type = deps.signatureTypes.has(code) ? deps.signatureTypes.get(code) : null;
    if (!type) {
      errors.push({ code: 'SIGNATURE_TYPE_UNAVAILABLE', pointer: `${at}/signatureType`, params: { type: code } });
    } else if (guest && (type.requiresPin || type.signsOnBehalf)) {
      errors.push({ code: 'TASK_ASSIGNEE_CANNOT_USE', pointer: `${at}/signatureType`, params: { type: code } });
    } else if (twoFactor !== 'none' && !type.allowsTwoFactor) {
      errors.push({ code: 'VALIDATION_FAILED', pointer: `${at}/twoFactor`, detail: `${code} takes no code` });
    } else if (guest && twoFactor === 'sms') {
      errors.push({ code: 'TASK_ASSIGNEE_CANNOT_USE', pointer: `${at}/twoFactor` });
    }
    return { signature_type: code, two_factor: twoFactor };
  });
  if (errors.length > 0) throw AppError.invalid(errors);
  return rows;
}

/** Resolves every task's assignee and role in the workspace; throws all resolution problems at once. */
export async function resolvePlan(
  trx: Knex.Transaction,
  access: WorkspaceAccess,
  tasks: TaskInput[],
  base: string,
): Promise<PlannedTask[]> {
  const participants: {
    kind: string;
    group_id: string | null;
    partner_organization_id: string | null;
    one_time_user_id: string | null;
  }[] = await trx('workspace_participants')
    .where('workspace_id', access.workspaceId)
    .select('kind', 'group_id', 'partner_organization_id', 'one_time_user_id');
  const ownGroups = new Set(
    (
      await trx('groups')
        .where('organization_id', access.ownerOrganizationId)
        .whereIn('id', uuids(tasks.map((t) => (t.assignee.kind === 'group' ? t.assignee.groupId : ''))))
        .select('id')
    ).map((g) => g.id as string),
  );
  const roles = new Map<string, TaskPermissions>(
    (
      await trx('roles')
        .where('organization_id', access.ownerOrganizationId)
        .whereIn('id', uuids(tasks.map((t) => t.roleId ?? '')))
        .select('id', 'task_permissions')
    ).map((r) => [r.id as string, r.task_permissions as TaskPermissions]),
  );
  const errors: FieldError[] = [];
  const planned = tasks.map((task, i): PlannedTask => {
    const at = `${base}/${i}`;
    const plannedTask: PlannedTask = {
      order: task.order,
      type: task.type,
      roleId: task.roleId ?? null,
      role: null,
      required: task.required,
      templateId: task.templateId ?? null,
      assignee: { kind: 'organization', organizationId: '' },
    };
    if (task.assignee.kind === 'group') {
      const groupId = task.assignee.groupId;
      if (!ownGroups.has(groupId)) errors.push({ code: 'REFERENCE_NOT_FOUND', pointer: `${at}/assignee/groupId` });
      else if (!participants.some((p) => p.kind === 'group' && p.group_id === groupId)) {
        errors.push({ code: 'TASK_ASSIGNEE_NOT_PARTICIPANT', pointer: `${at}/assignee/groupId` });
      }
      plannedTask.assignee = { kind: 'group', groupId, organizationId: access.ownerOrganizationId };
    } else if (task.assignee.kind === 'one_time_user') {
      const oneTimeUserId = task.assignee.oneTimeUserId;
      if (!participants.some((p) => p.kind === 'one_time_user' && p.one_time_user_id === oneTimeUserId)) {
        errors.push({ code: 'TASK_ASSIGNEE_NOT_PARTICIPANT', pointer: `${at}/assignee/oneTimeUserId` });
      }
      plannedTask.assignee = { kind: 'one_time_user', oneTimeUserId };
    } else {
      const organizationId = task.assignee.organizationId;
      if (!participants.some((p) => p.kind === 'organization' && p.partner_organization_id === organizationId)) {
        errors.push({ code: 'TASK_ASSIGNEE_NOT_PARTICIPANT', pointer: `${at}/assignee/organizationId` });
      }
      plannedTask.assignee = { kind: 'organization', organizationId };
    }
    if (task.roleId) {
      const permissions = roles.get(task.roleId);
      if (task.assignee.kind !== 'group') {
        errors.push({ code: 'VALIDATION_FAILED', pointer: `${at}/roleId`, detail: 'only a group task takes a role' });
      } else if (!permissions) errors.push({ code: 'REFERENCE_NOT_FOUND', pointer: `${at}/roleId` });
      else plannedTask.role = { taskPermissions: permissions };
    }
    return plannedTask;
  });
  if (errors.length > 0) throw AppError.invalid(errors);
  return planned;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only well-formed ids reach a uuid column (anything else simply resolves to nothing). */
function uuids(values: string[]): string[] {
  return values.filter((v) => UUID.test(v));
}
