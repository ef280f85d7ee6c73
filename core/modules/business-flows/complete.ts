/*
 * Completing a business flow, by hand (completeBusinessFlow with how 'manual') or automatically once its documents
 * are done (autoCompleteIfDone, called by the tasks and documents modules when a document completes or is
 * cancelled). Both run inside the caller's transaction and lock the flow row first, so two documents completing at
 * the same time complete the flow once. Completion mails every party of the flow (notify.ts), respecting the
 * workspace's notification switch.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { notifyFlowParties } from './notify.ts';
import { queueFlowEvent } from '../events/flow-events.ts';

/** Who completes a flow: a user, or the system (userId null) acting for an organization. */
export interface FlowActor {
  userId: string | null;
  organizationId: string;
  req?: RequestContext | null;
}

/** The columns of business_flows the flow module reads. */
export interface FlowRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  system_link_id: string | null;
  name: string;
  status: 'draft' | 'in_progress' | 'complete' | 'incomplete' | 'cancelled';
  comment: string | null;
  auto_complete: boolean;
  business_flow_template_id: string | null;
  cancel_comment: string | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  created_by: string | null;
  lock_version: number;
  created_at: Date;
  updated_at: Date;
}

/** Reads one flow with a row lock, or NOT_FOUND. */
export async function lockFlow(trx: Knex.Transaction, flowId: string): Promise<FlowRow> {
  const flow = (await trx('business_flows').where({ id: flowId }).forUpdate().first()) as FlowRow | undefined;
  if (!flow) throw new AppError('NOT_FOUND');
  return flow;
}

/** Appends a flow change to the workspace owner organization's operation log. */
export function logFlowChange(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: FlowActor,
  flow: Pick<FlowRow, 'id' | 'organization_id'>,
  action: string,
  details: Record<string, unknown>,
) {
  return deps.oplog.append(trx, actor.req ?? null, {
    action,
    organizationId: flow.organization_id,
    actorUserId: actor.userId,
    targetType: 'business_flow',
    targetId: flow.id,
    details: { ...details, actorOrganizationId: actor.organizationId },
  });
}

/**
 * Moves a flow to `complete` (from in progress or incomplete) and mails every party. A cancelled flow is 409
 * BUSINESS_FLOW_CANCELLED, a complete one 409 BUSINESS_FLOW_STATUS_INVALID. Returns the updated row.
 */
export async function completeBusinessFlow(
  deps: CoreDeps,
  trx: Knex.Transaction,
  flowId: string,
  actor: FlowActor,
  how: 'manual' | 'auto',
): Promise<FlowRow> {
  const flow = await lockFlow(trx, flowId);
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  if (flow.status === 'complete') throw new AppError('BUSINESS_FLOW_STATUS_INVALID');
  const now = deps.clock.now();
  const [updated] = (await trx('business_flows')
    .where({ id: flowId })
    .update({ status: 'complete', completed_at: now, updated_at: now, lock_version: trx.raw('lock_version + 1') })
    .returning('*')) as FlowRow[];
  await logFlowChange(deps, trx, actor, flow, 'business_flow.completed', { how, before: flow.status });
  await queueFlowEvent(deps, trx, 'business_flow.completed', flowId, { how });
  const workspace = await trx('workspaces').where({ id: flow.workspace_id }).first('name');
  await notifyFlowParties(deps, trx, {
    businessFlowId: flowId,
    kind: 'business-flow-completed',
    vars: {
      workspaceName: workspace?.name ?? '',
      businessFlowName: flow.name,
      link: `${deps.config.publicUrl}/business-flows/${flowId}`,
    },
  });
  return updated!;
}

/**
 * Completes an in-progress flow with autoComplete on once it holds at least one completed document and every
 * document that is not cancelled is completed. Returns whether it completed the flow.
 */
export async function autoCompleteIfDone(
  deps: CoreDeps,
  trx: Knex.Transaction,
  flowId: string,
  actor: FlowActor,
): Promise<boolean> {
  const flow = await lockFlow(trx, flowId);
  if (flow.status !== 'in_progress' || !flow.auto_complete) return false;
  const [counts] = (await trx('documents')
    .where({ business_flow_id: flowId })
    .whereNot('status', 'cancelled')
    .select(
      trx.raw('count(*)::int AS open_or_done'),
      trx.raw(`count(*) FILTER (WHERE status = 'completed')::int AS done`),
    )) as { open_or_done: number; done: number }[];
  if (!counts || counts.done === 0 || counts.done !== counts.open_or_done) return false;
  await completeBusinessFlow(deps, trx, flowId, actor, 'auto');
  return true;
}
