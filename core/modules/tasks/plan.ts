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
 * A sign task may carry the sender's fields (boxes the signer fills, task_fields) and whether the signer may place
 * boxes of their own; each field must lie on a page of the document's latest version (422 SIGNING_PAGE_NOT_FOUND /
 * SIGNING_POSITION_OUT_OF_RANGE), other task types take no fields (422 VALIDATION_FAILED). A draft document's plan
 * is stored with every task waiting (sendBusinessFlow activates it).
 * The caller holds the flow and document row locks; locking and lockVersion checks are the caller's.
 */
import type { Knex } from 'knex';
import { assertSignatureTypesInPlan } from './plan-gates.ts';
import type { CoreDeps } from '../../deps.ts';
import { latestVersion } from '../../files/scan.ts';
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
  /** Sign tasks: the sender's boxes for the signer. */
  fields?: TaskFieldInput[];
  /** Sign tasks: whether the signer may place boxes of their own (default true). */
  allowSignerPlacements?: boolean;
}

export type TaskFieldKind = 'signature' | 'seal' | 'handwritten' | 'text';

/** A page's size in PDF points. */
export interface PageSize {
  width: number;
  height: number;
}

/** One box the sender places for a sign task's signer (PDF points, origin bottom-left). */
export interface TaskFieldInput {
  kind: TaskFieldKind;
  page: number;
  rect: { x1: number; y1: number; x2: number; y2: number };
  required?: boolean;
  label?: string | null;
}

export interface ReplaceTasksInput {
  document: Pick<DocumentRow, 'id' | 'organization_id' | 'business_flow_id' | 'status' | 'name'>;
  access: WorkspaceAccess;
  tasks: TaskInput[] | unknown[];
  actor: DocumentActor;
  pointer?: string;
  /** The page sizes of the document's latest version, when the caller read them outside its transaction. */
  pageSizes?: PageSize[];
}

/** Whether any task of the plan carries fields (then the document's page sizes are needed). */
export const planHasFields = (tasks: TaskInput[]) => tasks.some((t) => (t.fields?.length ?? 0) > 0);

/** The page sizes of a document's latest version, read in the PDF worker pool (no transaction should be open). */
export async function documentPageSizes(deps: CoreDeps, db: Knex, documentId: string): Promise<PageSize[]> {
  const version = await latestVersion(db, documentId);
  const pdf = new Uint8Array(await deps.files.read(version.sha256));
  return deps.pdfWork.run('pageSizes', { pdf });
}

/** Fields only on sign tasks, each on a page of the document and inside it; every problem at once. */
function checkFields(tasks: TaskInput[], sizes: PageSize[], base: string): void {
  const errors: FieldError[] = [];
  tasks.forEach((task, i) => {
    const fields = task.fields ?? [];
    if (fields.length === 0) return;
    if (task.type !== 'sign' || task.signatureType === 'timestamp') {
      const detail = 'only a sign task with a visible signature takes fields';
      errors.push({ code: 'VALIDATION_FAILED', pointer: `${base}/${i}/fields`, detail });
      return;
    }
    fields.forEach((field, j) => {
      const at = `${base}/${i}/fields/${j}`;
      const size = sizes[field.page - 1];
      if (!size) {
        errors.push({
          code: 'SIGNING_PAGE_NOT_FOUND',
          pointer: `${at}/page`,
          params: { page: field.page, pages: sizes.length },
        });
        return;
      }
      const { x1, y1, x2, y2 } = field.rect;
      const inside = x1 >= 0 && y1 >= 0 && x2 <= size.width && y2 <= size.height;
      if (!(x1 < x2 && y1 < y2) || !inside)
        errors.push({ code: 'SIGNING_POSITION_OUT_OF_RANGE', pointer: `${at}/rect` });
    });
  });
  if (errors.length > 0) throw AppError.invalid(errors);
}

/** The task_fields rows of the inserted tasks (same order as the plan). */
function fieldRows(document: ReplaceTasksInput['document'], tasks: TaskInput[], rows: TaskRow[]) {
  return tasks.flatMap((task, i) =>
    task.type !== 'sign'
      ? []
      : (task.fields ?? []).map((field, position) => ({
          organization_id: document.organization_id,
          task_id: rows[i]!.id,
          kind: field.kind,
          page: field.page,
          x1: field.rect.x1,
          y1: field.rect.y1,
          x2: field.rect.x2,
          y2: field.rect.y2,
          required: field.required ?? true,
          label: field.label?.trim() || null,
          position,
        })),
  );
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
  await assertSignatureTypesInPlan(
    trx,
    access.ownerOrganizationId,
    signing.map((s) => s.signature_type),
    base,
  );
  const planned = await resolvePlan(trx, access, tasks, base);
  const errors = checkTaskPlan(planned, {
    ownerOrganizationId: access.ownerOrganizationId,
    callerOrganizationId: actor.organizationId,
    pointer: base,
  });
  if (errors.length > 0) throw AppError.invalid(errors);
  if (planHasFields(tasks)) {
    checkFields(tasks, input.pageSizes ?? (await documentPageSizes(deps, trx, document.id)), base);
  }
  const now = deps.clock.now();
  const newRows = planned.map((task, i) => ({
    ...taskRow(document, task, now),
    ...signing[i]!,
    allow_signer_placements: tasks[i]!.type !== 'sign' || tasks[i]!.allowSignerPlacements !== false,
  }));
  const ruleChange = await checkPlanReplacement(trx, access, document.id, newRows);
  await trx('tasks').where({ document_id: document.id }).delete();
  const rows: TaskRow[] = [];
  // One insert per task keeps each row matched to its input (fields hang off it).
  for (const row of newRows) rows.push(...((await trx('tasks').insert(row).returning('*')) as TaskRow[]));
  const fields = fieldRows(document, tasks, rows);
  if (fields.length > 0) await trx('task_fields').insert(fields);
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

/** A stored task as plan input (assignee, role, signing), to run the plan's rules again. */
function taskInputOf(row: TaskRow): TaskInput {
  return {
    order: row.task_order,
    type: row.type,
    roleId: row.role_id,
    required: row.required,
    templateId: row.template_id,
    signatureType: row.signature_type,
    twoFactor: row.two_factor,
    assignee:
      row.assignee_kind === 'group'
        ? { kind: 'group', groupId: row.group_id! }
        : row.assignee_kind === 'organization'
          ? { kind: 'organization', organizationId: row.partner_organization_id! }
          : { kind: 'one_time_user', oneTimeUserId: row.one_time_user_id! },
  };
}

/**
 * Runs every rule of replaceDocumentTasks again over a document's stored plan (signature types and their plan
 * gates, assignees still participants, the spec's rules), as when a draft is sent: the workspace may have changed
 * since the plan was saved. Errors point at `base`/{index}. Returns how many tasks the plan has.
 */
export async function recheckStoredPlan(
  deps: CoreDeps,
  trx: Knex.Transaction,
  access: WorkspaceAccess,
  actor: DocumentActor,
  documentId: string,
  base: string,
): Promise<number> {
  const rows = (await trx('tasks')
    .where({ document_id: documentId })
    .whereNot('status', 'cancelled')
    .orderBy(['task_order', 'created_at', 'id'])) as TaskRow[];
  if (rows.length === 0) return 0;
  const tasks = rows.map(taskInputOf);
  const signing = signingOf(deps, tasks, base);
  await assertSignatureTypesInPlan(
    trx,
    access.ownerOrganizationId,
    signing.map((s) => s.signature_type),
    base,
  );
  const planned = await resolvePlan(trx, access, tasks, base);
  const errors = checkTaskPlan(planned, {
    ownerOrganizationId: access.ownerOrganizationId,
    callerOrganizationId: actor.organizationId,
    pointer: base,
  });
  if (errors.length > 0) throw AppError.invalid(errors);
  return rows.length;
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
