/*
 * Rows and shared steps of the tasks module: the task row, activating an order (with the task-assigned mail), and
 * the history event plus operation log entry every step writes (in the workspace owner organization's log).
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { GuestPrincipal, Principal } from '../../http/context.ts';
import { BRANCH_ID } from '../../http/pagination.ts';
import { addDocumentEvent, type DocumentActor, type DocumentRow, logDocumentChange } from '../documents/model.ts';
import { notifyFlowParties } from '../business-flows/notify.ts';
import { queueTasksAssigned } from '../events/flow-events.ts';
import type { TaskType } from './rules.ts';

/** Who runs a task step: a member (of the owner or a partner organization) or a one-time user (guest). */
export type TaskCaller = Principal | GuestPrincipal;

/** Whether the caller is a one-time user. */
export const isGuestCaller = (caller: TaskCaller): caller is GuestPrincipal => 'oneTimeUserId' in caller;

export type TaskStatus = 'waiting' | 'active' | 'completed' | 'skipped' | 'cancelled';

/** A tasks row as knex returns it. */
export interface TaskRow {
  id: string;
  organization_id: string;
  document_id: string;
  task_order: number;
  type: TaskType;
  role_id: string | null;
  assignee_kind: 'group' | 'organization' | 'one_time_user';
  group_id: string | null;
  partner_organization_id: string | null;
  one_time_user_id: string | null;
  required: boolean;
  template_id: string | null;
  status: TaskStatus;
  completed_by: string | null;
  completed_by_one_time_user_id: string | null;
  completed_at: Date | null;
  /** Sign tasks: the signature type's code (core/signing); null for approve and read. */
  signature_type: string | null;
  two_factor: 'none' | 'sms' | 'email';
  /** Sign tasks: whether the signer may place boxes besides the sender's fields (task_fields). */
  allow_signer_placements: boolean;
  lock_version: number;
  created_at: Date;
  updated_at: Date;
}

type DocumentRef = Pick<DocumentRow, 'id' | 'organization_id' | 'business_flow_id' | 'name'>;

/**
 * Makes the waiting tasks of `order` active, records it as the document's current order and mails their assignees
 * (task-assigned, unless `mail` is false). Returns the ids of the tasks it activated.
 */
export async function activateOrder(
  deps: CoreDeps,
  trx: Knex.Transaction,
  document: DocumentRef,
  order: number,
  options: { mail?: boolean } = {},
): Promise<string[]> {
  const now = deps.clock.now();
  const activated = (await trx('tasks')
    .where({ document_id: document.id, task_order: order, status: 'waiting' })
    .update({ status: 'active', updated_at: now, lock_version: trx.raw('lock_version + 1') })
    .returning(['id', 'type'])) as { id: string; type: TaskType }[];
  await trx('documents').where({ id: document.id }).update({ current_order: order, updated_at: now });
  await queueTasksAssigned(
    deps,
    trx,
    document.id,
    activated.map((t) => ({ id: t.id, type: t.type, order })),
  );
  const types = options.mail === false ? [] : [...new Set(activated.map((t) => t.type))];
  for (const type of types) {
    await notifyFlowParties(deps, trx, {
      businessFlowId: document.business_flow_id,
      kind: 'task-assigned',
      vars: { documentName: document.name, taskType: type },
      only: { taskIds: activated.filter((t) => t.type === type).map((t) => t.id) },
    });
  }
  return activated.map((t) => t.id);
}

/** One step of a document's tasks: a document_events row and an operation log entry. */
export async function logTaskStep(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  document: Pick<DocumentRow, 'id' | 'organization_id'>,
  step: { kind: string; action: string; at: Date; taskId?: string; reason?: string | null; toOrder?: number | null },
  details: Record<string, unknown> = {},
): Promise<void> {
  await addDocumentEvent(trx, document, actor, step);
  await logDocumentChange(deps, trx, actor, document, step.action, {
    ...details,
    ...(step.taskId ? { taskId: step.taskId } : {}),
    ...(step.reason ? { reason: step.reason } : {}),
    ...(step.toOrder ? { toOrder: step.toOrder } : {}),
  });
}

/**
 * Restricts a query over `tasks as <alias>` to the tasks the caller is an assignee of: a member of the task's
 * group holding its role (when it has one), a user of the partner organization (partner tasks have no role), or the
 * one-time user the task names.
 */
export function whereAssignedTo(knex: Knex, query: Knex.QueryBuilder, caller: TaskCaller, alias = 't') {
  if (isGuestCaller(caller)) {
    return query
      .whereRaw(`${alias}.assignee_kind = 'one_time_user'`)
      .where(`${alias}.one_time_user_id`, caller.oneTimeUserId);
  }
  const principal = caller;
  return query.where((w) =>
    w
      .where((g) =>
        g
          .whereRaw(`${alias}.assignee_kind = 'group'`)
          .whereIn(`${alias}.group_id`, knex('group_members').where('user_id', principal.userId).select('group_id'))
          .where((r) =>
            r
              .whereNull(`${alias}.role_id`)
              .orWhereIn(`${alias}.role_id`, knex('user_roles').where('user_id', principal.userId).select('role_id')),
          ),
      )
      .orWhere((o) =>
        o
          .whereRaw(`${alias}.assignee_kind = 'organization'`)
          .where(`${alias}.partner_organization_id`, principal.organizationId),
      ),
  );
}

/**
 * whereAssignedTo as disjoint branches for a paged list (core/http/pagination.ts PageOptions.branches): the tasks of
 * each group of the caller's, one LATERAL walk per group along tasks_active_group_order, and their organization's
 * tasks as a partner along tasks_active_partner_order. The OR of whereAssignedTo sorts every assigned live task to
 * find the newest twenty (0.35 s for an owner of 350,000); the branches read twenty index entries each.
 */
export function assignedBranches(knex: Knex, principal: Principal, alias = 't') {
  return [
    (first: Knex.QueryBuilder) =>
      knex('group_members as gm')
        .where('gm.user_id', principal.userId)
        .joinRaw('CROSS JOIN LATERAL ? AS x', [
          // The subquery is bound as a raw (a query builder is not a binding's type); knex parenthesises it.
          knex.raw('?', [
            first
              .whereRaw(`${alias}.assignee_kind = 'group'`)
              .whereRaw(`${alias}.group_id = gm.group_id`)
              .where((r) =>
                r
                  .whereNull(`${alias}.role_id`)
                  .orWhereIn(
                    `${alias}.role_id`,
                    knex('user_roles').where('user_id', principal.userId).select('role_id'),
                  ),
              ),
          ]),
        ])
        .select(`x.${BRANCH_ID}`),
    (first: Knex.QueryBuilder) =>
      first
        .whereRaw(`${alias}.assignee_kind = 'organization'`)
        .where(`${alias}.partner_organization_id`, principal.organizationId),
  ];
}

/** Whether the caller is an assignee of the task (see whereAssignedTo). */
export async function isAssignee(trx: Knex, caller: TaskCaller, taskId: string): Promise<boolean> {
  const row = await whereAssignedTo(trx, trx('tasks as t').where('t.id', taskId), caller).first('t.id');
  return Boolean(row);
}
