/*
 * The spec's rules for a document's task plan, as one pure function (no I/O) over tasks whose assignees and roles
 * are already resolved. Used by the task editor (replaceDocumentTasks, updateTask) and by document templates
 * (there the caller's organization is the owner organization).
 *
 *   checkTaskPlan(tasks, { ownerOrganizationId, callerOrganizationId, pointer? }) -> FieldError[]
 */
import type { FieldError } from '../../http/errors.ts';

export type TaskType = 'sign' | 'approve' | 'read';

/** What a role lets its holders do with each task type (roles.task_permissions). */
export type TaskPermissions = Partial<Record<TaskType, { execute?: boolean; view?: boolean }>>;

export type PlannedAssignee =
  | { kind: 'group'; groupId: string; organizationId: string }
  | { kind: 'organization'; organizationId: string }
  | { kind: 'one_time_user'; oneTimeUserId: string };

export interface PlannedTask {
  order: number;
  type: TaskType;
  roleId?: string | null;
  role?: { taskPermissions: TaskPermissions } | null;
  assignee: PlannedAssignee;
  required: boolean;
  templateId?: string | null;
}

export interface TaskPlanContext {
  ownerOrganizationId: string;
  callerOrganizationId: string;
  /** Where the task list sits in the request body; default `/data/attributes/tasks`. */
  pointer?: string;
}

/** At most this many tasks per document (the spec names a task limit without its value). */
export const MAX_TASKS = 30;

/** Every rule the plan breaks, one error per offending field (empty when the plan is valid). */
export function checkTaskPlan(tasks: PlannedTask[], ctx: TaskPlanContext): FieldError[] {
  const base = ctx.pointer ?? '/data/attributes/tasks';
  if (tasks.length > MAX_TASKS) return [{ code: 'TASK_LIMIT', pointer: base, params: { max: MAX_TASKS } }];
  return [
    ...orderErrors(tasks, base),
    ...readErrors(tasks, base),
    ...roleErrors(tasks, base),
    ...templateIdErrors(tasks, base),
    ...partyErrors(tasks, ctx, base),
  ];
}

/** Exactly one task has order 1, and the orders used run 1, 2, 3… without a gap. */
function orderErrors(tasks: PlannedTask[], base: string): FieldError[] {
  const errors: FieldError[] = [];
  const firsts = tasks.flatMap((t, i) => (t.order === 1 ? [i] : []));
  for (const i of firsts.slice(1)) errors.push({ code: 'TASK_ORDER_ONE_NOT_UNIQUE', pointer: `${base}/${i}/order` });
  const orders = [...new Set(tasks.map((t) => t.order))].sort((a, b) => a - b);
  const missing = orders.findIndex((order, index) => order !== index + 1);
  if (missing >= 0) {
    const i = tasks.findIndex((t) => t.order === orders[missing]);
    errors.push({ code: 'TASK_ORDER_GAP', pointer: `${base}/${i}/order` });
  }
  return errors;
}

/** A read task is in the last order, or shares its order with a task of another type (parallel). */
function readErrors(tasks: PlannedTask[], base: string): FieldError[] {
  const last = Math.max(...tasks.map((t) => t.order));
  return tasks.flatMap((task, i) => {
    if (task.type !== 'read' || task.order === last) return [];
    const parallel = tasks.some((other) => other.order === task.order && other.type !== 'read');
    return parallel ? [] : [{ code: 'TASK_READ_NOT_LAST' as const, pointer: `${base}/${i}/type` }];
  });
}

/** A task's role must be allowed to execute tasks of its type. */
function roleErrors(tasks: PlannedTask[], base: string): FieldError[] {
  return tasks.flatMap((task, i) =>
    task.role && task.role.taskPermissions[task.type]?.execute !== true
      ? [{ code: 'ROLE_CANNOT_PERFORM_TASK' as const, pointer: `${base}/${i}/roleId`, params: { type: task.type } }]
      : [],
  );
}

/** Task template IDs are unique within the document. */
function templateIdErrors(tasks: PlannedTask[], base: string): FieldError[] {
  const seen = new Set<string>();
  return tasks.flatMap((task, i) => {
    if (!task.templateId) return [];
    if (!seen.has(task.templateId)) {
      seen.add(task.templateId);
      return [];
    }
    return [{ code: 'TASK_TEMPLATE_ID_DUPLICATE' as const, pointer: `${base}/${i}/templateId` }];
  });
}

/** A required task for a group of the caller's organization, and a task for the owner organization. */
function partyErrors(tasks: PlannedTask[], ctx: TaskPlanContext, base: string): FieldError[] {
  const organizationOf = (t: PlannedTask) => (t.assignee.kind === 'one_time_user' ? null : t.assignee.organizationId);
  const errors: FieldError[] = [];
  const ownGroup = tasks.some(
    (t) => t.required && t.assignee.kind === 'group' && t.assignee.organizationId === ctx.callerOrganizationId,
  );
  if (!ownGroup) errors.push({ code: 'TASK_OWN_GROUP_REQUIRED', pointer: base });
  if (!tasks.some((t) => organizationOf(t) === ctx.ownerOrganizationId)) {
    errors.push({ code: 'TASK_OWNER_ORGANIZATION_REQUIRED', pointer: base });
  }
  return errors;
}
