import type { Knex } from 'knex';
import { assertLockVersion } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { type PropertyValueInput, writePropertyValues } from '../properties/values.ts';
import { uniquely } from '../users/validation.ts';
import { assertCanEdit, flowAccess } from '../workspaces/access.ts';
import { type FlowRow, lockFlow, logFlowChange } from './complete.ts';
import { assertClientMayWrite, assertSystemLinkIdFree, UNIQUE_FLOW } from './create-business-flow.ts';

export interface FlowUpdateInput {
  lockVersion: number;
  name?: string;
  systemLinkId?: string | null;
  comment?: string | null;
  autoComplete?: boolean;
  properties?: PropertyValueInput[];
}

/**
 * The common start of every change: the flow visible to the caller, edit rights, the row locked, not cancelled and
 * at the caller's lockVersion.
 */
export async function lockForChange(trx: Knex.Transaction, principal: Principal, flowId: string, lockVersion: number) {
  const { access } = await flowAccess(trx, principal, flowId);
  assertCanEdit(access);
  const flow = await lockFlow(trx, flowId);
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  assertLockVersion(flow, lockVersion);
  return { access, flow };
}

const FLOW_FIELDS = ['name', 'systemLinkId', 'comment', 'autoComplete'] as const;

/** Changes the fields and property values of a flow; partners may change only client-editable values. */
export async function updateBusinessFlow(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  flowId: string,
  input: FlowUpdateInput,
): Promise<void> {
  const { access, flow } = await lockForChange(trx, principal, flowId, input.lockVersion);
  if (!access.isOwnerOrganization) {
    const field = FLOW_FIELDS.find((f) => input[f] !== undefined);
    if (field) throw new AppError('FORBIDDEN', { pointer: `/data/attributes/${field}` });
  }
  await assertClientMayWrite(trx, access, input.properties ?? []);
  await assertSystemLinkIdFree(trx, flow.organization_id, input.systemLinkId, flowId);
  const now = deps.clock.now();
  const patch: Record<string, unknown> = { updated_at: now, lock_version: trx.raw('lock_version + 1') };
  if (input.name !== undefined) patch.name = input.name;
  if (input.systemLinkId !== undefined) patch.system_link_id = input.systemLinkId || null;
  if (input.comment !== undefined) patch.comment = input.comment;
  if (input.autoComplete !== undefined) patch.auto_complete = input.autoComplete;
  await uniquely(() => trx('business_flows').where({ id: flowId }).update(patch), UNIQUE_FLOW);
  const { changed } = await writePropertyValues(trx, {
    organizationId: flow.organization_id,
    targetType: 'business_flow',
    targetId: flowId,
    values: input.properties ?? [],
    now,
  });
  await logFlowChange(deps, trx, actorOf(principal, req), flow, 'business_flow.updated', {
    before: fieldsOf(flow),
    after: fieldsOf({ ...flow, ...renamed(input) }),
    properties: changed,
  });
}

const fieldsOf = (f: Pick<FlowRow, 'name' | 'system_link_id' | 'comment' | 'auto_complete'>) => ({
  name: f.name,
  systemLinkId: f.system_link_id,
  comment: f.comment,
  autoComplete: f.auto_complete,
});

function renamed(input: FlowUpdateInput): Partial<FlowRow> {
  const out: Partial<FlowRow> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.systemLinkId !== undefined) out.system_link_id = input.systemLinkId || null;
  if (input.comment !== undefined) out.comment = input.comment;
  if (input.autoComplete !== undefined) out.auto_complete = input.autoComplete;
  return out;
}

/** The actor of a flow change made by a signed-in user. */
export const actorOf = (principal: Principal, req: RequestContext | null) => ({
  userId: principal.userId,
  organizationId: principal.organizationId,
  req,
});
