/*
 * Who may change the rules that govern a task under way: who runs it (assignee group or partner, role) and, for a
 * sign task, how it is signed (signature type, two-factor channel). Once a document's plan is live (it has tasks
 * waiting or active), only the workspace owner's right allows such a change: an administrator of the organization
 * that owns the workspace (WorkspaceAccess.isOwnerAdmin). Editors of the workspace keep every other edit (orders,
 * the required flag, added tasks), so nobody weakens the rules of their own task, e.g. drops the role they lack and
 * then approves (403 TASK_RULE_CHANGE_FORBIDDEN). Every allowed change is in the operation log with before/after.
 */
import type { Knex } from 'knex';
import { AppError } from '../../http/errors.ts';
import type { WorkspaceAccess } from '../workspaces/access.ts';
import type { TaskRow } from './model.ts';

/** The columns of a task row that decide who runs it and how. */
export type RuleFields = Pick<
  TaskRow,
  | 'type'
  | 'assignee_kind'
  | 'group_id'
  | 'partner_organization_id'
  | 'one_time_user_id'
  | 'role_id'
  | 'signature_type'
  | 'two_factor'
>;

/** The id of whoever runs the task: its group, partner organization or one-time user. */
const assigneeIdOf = (task: RuleFields) =>
  task.assignee_kind === 'group'
    ? task.group_id
    : task.assignee_kind === 'organization'
      ? task.partner_organization_id
      : task.one_time_user_id;

/** A task's rules as the operation log records them. */
export function rulesOf(task: RuleFields & Pick<TaskRow, 'task_order' | 'required'>) {
  return {
    order: task.task_order,
    type: task.type,
    assignee: {
      kind: task.assignee_kind,
      id: assigneeIdOf(task),
    },
    roleId: task.role_id,
    required: task.required,
    signatureType: task.signature_type,
    twoFactor: task.two_factor,
  };
}

function ruleKey(task: RuleFields): string {
  return [
    task.type,
    task.assignee_kind,
    assigneeIdOf(task),
    task.role_id,
    task.signature_type,
    task.two_factor ?? 'none',
  ]
    .map((part) => part ?? '')
    .join('|');
}

/** Throws TASK_RULE_CHANGE_FORBIDDEN unless the caller holds the workspace owner's right. */
export function assertMayChangeRules(access: WorkspaceAccess): void {
  if (!access.isOwnerAdmin) throw new AppError('TASK_RULE_CHANGE_FORBIDDEN');
}

/**
 * Whether a new plan keeps every live task's rules: each live task has a task in the new plan with the same type,
 * assignee, role, signature type and two-factor channel (orders, the required flag and added tasks may differ).
 */
export function keepsRules(live: RuleFields[], next: RuleFields[]): boolean {
  const available = new Map<string, number>();
  for (const task of next) available.set(ruleKey(task), (available.get(ruleKey(task)) ?? 0) + 1);
  return live.every((task) => {
    const left = available.get(ruleKey(task)) ?? 0;
    available.set(ruleKey(task), left - 1);
    return left > 0;
  });
}

type RuleRow = RuleFields & Pick<TaskRow, 'task_order' | 'required'>;

/**
 * Before a document's plan is replaced: when it is live and the new plan does not keep every live task's rules,
 * the caller needs the workspace owner's right. Returns what the operation log records (null for a first plan).
 */
export async function checkPlanReplacement(
  trx: Knex.Transaction,
  access: WorkspaceAccess,
  documentId: string,
  next: RuleRow[],
): Promise<{ before: ReturnType<typeof rulesOf>[]; after: ReturnType<typeof rulesOf>[] } | null> {
  const live = (await trx('tasks')
    .where({ document_id: documentId })
    .whereIn('status', ['waiting', 'active'])
    .orderBy(['task_order', 'created_at', 'id'])) as TaskRow[];
  if (live.length === 0) return null;
  if (!keepsRules(live, next)) assertMayChangeRules(access);
  return { before: live.map(rulesOf), after: next.map(rulesOf) };
}
