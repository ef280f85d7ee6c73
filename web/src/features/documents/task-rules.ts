// The spec's task rules, checked in the browser before replaceDocumentTasks so the editor can point at the row;
// the server checks the same rules and answers with the same codes (422, pointer /data/attributes/tasks/{i}/...).

import type { components } from '../../../../core/contract/api.gen.ts';

export type TaskType = 'sign' | 'approve' | 'read';
type TaskFieldInput = components['schemas']['TaskFieldInput'];

/** How a sign task signs (SignatureTypeCode) and the code asked before it (TwoFactorChannel). */
export type SignatureType =
  'party' | 'proxy' | 'advanced' | 'operator' | 'handwritten' | 'seal-image' | 'timestamp' | 'long-term';
export type TwoFactor = 'none' | 'sms' | 'email';

/** The signature type a sign task gets when none is chosen (the server's default too). */
export const DEFAULT_SIGNATURE_TYPE: SignatureType = 'operator';

/** What a task may be assigned to: an own group, a partner organization, or a one-time user of the workspace. */
export type AssigneeKind = 'group' | 'organization' | 'one_time_user';

/**
 * The signature types a one-time user may sign with: the business-operator ones, which need no e-certificate or
 * PIN of their own (the server's rule, 422 TASK_ASSIGNEE_CANNOT_USE).
 */
export const GUEST_SIGNATURE_TYPES: readonly SignatureType[] = ['operator', 'handwritten', 'seal-image', 'long-term'];
/** A one-time user has no phone number on file: a code reaches them by e-mail or not at all. */
export const GUEST_TWO_FACTORS: readonly TwoFactor[] = ['none', 'email'];

/**
 * One row of the task editor. `assignee` is `group:<id>`, `organization:<id>` or `one_time_user:<id>` ('' while
 * none is chosen);
 * `signatureType` and `twoFactor` matter for sign tasks only.
 */
export interface TaskRow {
  key: string;
  order: number;
  type: TaskType;
  assignee: string;
  roleId: string;
  required: boolean;
  templateId: string;
  signatureType?: SignatureType;
  twoFactor?: TwoFactor;
  /** Sign tasks: the boxes the sender placed (the send wizard), kept as they are by the task editor. */
  fields?: TaskFieldInput[];
  allowSignerPlacements?: boolean;
}

/** Who the rules need to know about: the caller's organization and the workspace's owner organization. */
export interface TaskRuleContext {
  ownOrganizationId: string;
  ownerOrganizationId: string;
  /** The organization each group assignee belongs to (workspace participants: always the owner organization). */
  groupOrganization: (groupId: string) => string | undefined;
}

/** The most tasks one document may have (TASK_LIMIT). */
export const MAX_TASKS = 30;

/** A rule code of the server's catalogue (errors.json), or a client-only reason of the documents catalogue. */
export type TaskProblemCode =
  | 'TASK_ORDER_ONE_NOT_UNIQUE'
  | 'TASK_ORDER_GAP'
  | 'TASK_READ_NOT_LAST'
  | 'TASK_OWN_GROUP_REQUIRED'
  | 'TASK_OWNER_ORGANIZATION_REQUIRED'
  | 'TASK_TEMPLATE_ID_DUPLICATE'
  | 'TASK_ASSIGNEE_NOT_PARTICIPANT'
  | 'TASK_ASSIGNEE_CANNOT_USE'
  | 'TASK_LIMIT'
  | 'ROLE_CANNOT_PERFORM_TASK'
  | 'assigneeRequired'
  | 'orderInvalid';

/** A problem of one row (`row` is its index, `field` the column), or of the whole list (`row` null). */
export interface TaskProblem {
  row: number | null;
  field?: keyof TaskRow;
  code: TaskProblemCode;
}

export function parseAssignee(assignee: string): { kind: AssigneeKind; id: string } | null {
  const match = /^(group|organization|one_time_user):(.+)$/.exec(assignee);
  return match ? { kind: match[1] as AssigneeKind, id: match[2]! } : null;
}

/** True when the row's assignee is a one-time user (who takes no role and signs only the guest ways). */
export const isGuestRow = (row: Pick<TaskRow, 'assignee'>) => row.assignee.startsWith('one_time_user:');

/** The organization a row's assignee belongs to (a partner organization is itself; a one-time user has none). */
function assigneeOrganization(row: TaskRow, context: TaskRuleContext): string | undefined {
  const assignee = parseAssignee(row.assignee);
  if (!assignee || assignee.kind === 'one_time_user') return undefined;
  return assignee.kind === 'organization' ? assignee.id : context.groupOrganization(assignee.id);
}

/** A one-time user's sign task: only the guest signature types, and a code by e-mail or none. */
function guestProblems(rows: TaskRow[]): TaskProblem[] {
  return rows.flatMap((row, index): TaskProblem[] => {
    if (!isGuestRow(row) || row.type !== 'sign') return [];
    const problems: TaskProblem[] = [];
    if (!GUEST_SIGNATURE_TYPES.includes(row.signatureType ?? DEFAULT_SIGNATURE_TYPE)) {
      problems.push({ row: index, field: 'signatureType', code: 'TASK_ASSIGNEE_CANNOT_USE' });
    }
    if (!GUEST_TWO_FACTORS.includes(row.twoFactor ?? 'none')) {
      problems.push({ row: index, field: 'twoFactor', code: 'TASK_ASSIGNEE_CANNOT_USE' });
    }
    return problems;
  });
}

function rowProblems(rows: TaskRow[]): TaskProblem[] {
  const problems: TaskProblem[] = [];
  const firstOrderOne = rows.findIndex((row) => row.order === 1);
  const templateIds = new Map<string, number>();
  rows.forEach((row, index) => {
    if (!Number.isInteger(row.order) || row.order < 1)
      problems.push({ row: index, field: 'order', code: 'orderInvalid' });
    if (row.order === 1 && index !== firstOrderOne) {
      problems.push({ row: index, field: 'order', code: 'TASK_ORDER_ONE_NOT_UNIQUE' });
    }
    if (!parseAssignee(row.assignee)) problems.push({ row: index, field: 'assignee', code: 'assigneeRequired' });
    const templateId = row.templateId.trim();
    if (templateId) {
      if (templateIds.has(templateId))
        problems.push({ row: index, field: 'templateId', code: 'TASK_TEMPLATE_ID_DUPLICATE' });
      else templateIds.set(templateId, index);
    }
  });
  return problems;
}

/** Orders must run 1, 2, 3 … without a gap (parallel tasks share one). */
function hasOrderGap(rows: TaskRow[]): boolean {
  const orders = [...new Set(rows.map((row) => row.order))].sort((a, b) => a - b);
  return orders.some((order, index) => order !== index + 1);
}

/** A read task may only be last (the highest order) or parallel (sharing its order with a task that is not read). */
function readProblems(rows: TaskRow[]): TaskProblem[] {
  const last = Math.max(...rows.map((row) => row.order));
  return rows.flatMap((row, index) => {
    if (row.type !== 'read' || row.order === last) return [];
    const parallel = rows.some((other) => other.order === row.order && other.type !== 'read');
    return parallel ? [] : [{ row: index, field: 'type' as const, code: 'TASK_READ_NOT_LAST' as const }];
  });
}

/** Every problem of the task list, rows first, then the rules about the list as a whole. */
export function checkTasks(rows: TaskRow[], context: TaskRuleContext): TaskProblem[] {
  if (rows.length === 0) return [{ row: null, code: 'TASK_OWN_GROUP_REQUIRED' }];
  const problems = [...rowProblems(rows), ...guestProblems(rows), ...readProblems(rows)];
  if (rows.length > MAX_TASKS) problems.push({ row: null, code: 'TASK_LIMIT' });
  if (rows.every((row) => Number.isInteger(row.order) && row.order >= 1) && hasOrderGap(rows)) {
    problems.push({ row: null, code: 'TASK_ORDER_GAP' });
  }
  const ownRequired = rows.some((row) => {
    const assignee = parseAssignee(row.assignee);
    return (
      row.required && assignee?.kind === 'group' && assigneeOrganization(row, context) === context.ownOrganizationId
    );
  });
  if (!ownRequired) problems.push({ row: null, code: 'TASK_OWN_GROUP_REQUIRED' });
  if (!rows.some((row) => assigneeOrganization(row, context) === context.ownerOrganizationId)) {
    problems.push({ row: null, code: 'TASK_OWNER_ORGANIZATION_REQUIRED' });
  }
  return problems;
}

/**
 * A server refusal placed on the editor: `/data/attributes/tasks/{i}/{field}` goes to row i (its column when the
 * field is one of the editor's), any other pointer or none to the list as a whole.
 */
export function serverTaskProblems(
  errors: readonly { code: string; source?: { pointer?: string } }[],
  fieldOf: (wireField: string) => keyof TaskRow | undefined = (field) => WIRE_FIELDS[field],
): TaskProblem[] {
  return errors.map((error) => {
    const match = /^\/data\/attributes\/tasks\/(\d+)(?:\/(\w+))?/.exec(error.source?.pointer ?? '');
    const code = error.code as TaskProblemCode;
    if (!match) return { row: null, code };
    const field = match[2] ? fieldOf(match[2]) : undefined;
    return { row: Number(match[1]), ...(field ? { field } : {}), code };
  });
}

const WIRE_FIELDS: Record<string, keyof TaskRow> = {
  order: 'order',
  type: 'type',
  assignee: 'assignee',
  groupId: 'assignee',
  organizationId: 'assignee',
  partnerOrganizationId: 'assignee',
  oneTimeUserId: 'assignee',
  roleId: 'roleId',
  required: 'required',
  templateId: 'templateId',
  signatureType: 'signatureType',
  twoFactor: 'twoFactor',
};

/** Rows renumbered after an edit, keeping parallel tasks together: orders become 1, 2, 3 … in their sort order. */
export function compactOrders(rows: TaskRow[]): TaskRow[] {
  const orders = [...new Set(rows.map((row) => row.order))].sort((a, b) => a - b);
  return rows.map((row) => ({ ...row, order: orders.indexOf(row.order) + 1 }));
}

/** The orders a remand may go back to: every order before the task's own (the select defaults to 1). */
export function remandTargets(order: number): number[] {
  return Array.from({ length: Math.max(0, order - 1) }, (_, index) => index + 1);
}
