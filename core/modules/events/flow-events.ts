/*
 * The integration events of flows, documents and tasks, each queued in the transaction of its change
 * (integration-event.ts): the callers in core/modules pass ids, this file reads the refs and the audience.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { queueIntegrationEvent } from './integration-event.ts';
import { documentEventContext, flowEventContext } from './refs.ts';
import type { IntegrationEventType } from './types.ts';

type Deps = Pick<CoreDeps, 'jobs' | 'clock'>;

/** A document's event (document.*, task.*, signature.created), heard by the organizations that see its flow. */
export async function queueDocumentEvent(
  deps: Deps,
  trx: Knex.Transaction,
  type: IntegrationEventType,
  documentId: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { refs, document, audience } = await documentEventContext(trx, documentId);
  await queueIntegrationEvent(deps, trx, { type, organizationIds: audience, data: { ...refs, document, ...extra } });
}

/** Tasks made active (task.assigned), one event per task. */
export async function queueTasksAssigned(
  deps: Deps,
  trx: Knex.Transaction,
  documentId: string,
  tasks: { id: string; type: string; order: number }[],
): Promise<void> {
  for (const task of tasks) {
    await queueDocumentEvent(deps, trx, 'task.assigned', documentId, { task });
  }
}

/** A flow's event (business_flow.*), heard by the organizations that see it. */
export async function queueFlowEvent(
  deps: Deps,
  trx: Knex.Transaction,
  type: IntegrationEventType,
  businessFlowId: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { refs, audience } = await flowEventContext(trx, businessFlowId);
  await queueIntegrationEvent(deps, trx, { type, organizationIds: audience, data: { ...refs, ...extra } });
}

/** A partner organization joined a workspace: heard by the owner and the partner. */
export async function queueWorkspaceInvitationAccepted(
  deps: Deps,
  trx: Knex.Transaction,
  input: { invitationId: string; workspaceId: string; ownerOrganizationId: string; partnerOrganizationId: string },
): Promise<void> {
  const workspace = await trx('workspaces').where({ id: input.workspaceId }).first('id', 'system_link_id');
  await queueIntegrationEvent(deps, trx, {
    type: 'invitation.accepted',
    organizationIds: [input.ownerOrganizationId, input.partnerOrganizationId],
    data: {
      kind: 'workspace',
      invitationId: input.invitationId,
      workspace: { id: workspace.id, systemLinkId: workspace.system_link_id ?? null },
      partnerOrganizationId: input.partnerOrganizationId,
    },
  });
}

/** A one-time user (guest) registered with their invitation: heard by the flow's owner organization. */
export async function queueOneTimeInvitationAccepted(
  deps: Deps,
  trx: Knex.Transaction,
  input: { invitationId: string; oneTimeUserId: string; businessFlowId: string },
): Promise<void> {
  const { refs, ownerOrganizationId } = await flowEventContext(trx, input.businessFlowId);
  await queueIntegrationEvent(deps, trx, {
    type: 'invitation.accepted',
    organizationIds: [ownerOrganizationId],
    data: { kind: 'one_time', invitationId: input.invitationId, oneTimeUserId: input.oneTimeUserId, ...refs },
  });
}
