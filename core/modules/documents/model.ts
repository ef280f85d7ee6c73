/*
 * Rows and small shared pieces of the documents module: the row type, who acts, the history event and the
 * operation log entry every change writes (in the workspace owner organization's log, in the same transaction).
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { GuestPrincipal, Principal, RequestContext } from '../../http/context.ts';

export type DocumentStatus = 'draft' | 'in_progress' | 'completed' | 'remanded' | 'cancelled';

export const DOCUMENT_TYPES = [
  'contract',
  'purchase_order',
  'order_confirmation',
  'invoice',
  'quotation',
  'delivery_note',
  'receipt',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** A documents row as knex returns it. */
export interface DocumentRow {
  id: string;
  organization_id: string;
  business_flow_id: string;
  system_link_id: string | null;
  name: string;
  document_type: DocumentType;
  status: DocumentStatus;
  cancel_comment: string | null;
  current_order: number | null;
  document_template_id: string | null;
  created_by: string | null;
  completed_at: Date | null;
  lock_version: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * The user acting on a document (possibly of a partner organization), or a one-time user: then `userId` is null,
 * `organizationId` is the workspace owner's and `oneTimeUser` names the guest (history and log record them).
 */
export interface DocumentActor {
  userId: string | null;
  organizationId: string;
  req: RequestContext | null;
  oneTimeUser?: { id: string; email: string } | null;
}

export function documentActorOf(principal: Principal, req: RequestContext): DocumentActor {
  return { userId: principal.userId, organizationId: principal.organizationId, req };
}

/** A one-time user acting on a document of the flow they were invited to. */
export function guestActorOf(guest: GuestPrincipal, req: RequestContext): DocumentActor {
  return {
    userId: null,
    organizationId: guest.organizationId,
    req,
    oneTimeUser: { id: guest.oneTimeUserId, email: guest.email },
  };
}

/** The unique constraint on (organization_id, system_link_id) and what it means for each input shape. */
export const DOCUMENT_SYSTEM_LINK_UNIQUE = 'documents_organization_id_system_link_id_unique';

/** Appends one step to the document's history (taskId: the task the step concerns, when one does). */
export async function addDocumentEvent(
  trx: Knex.Transaction,
  document: Pick<DocumentRow, 'id' | 'organization_id'>,
  actor: DocumentActor | null,
  event: { kind: string; at: Date; taskId?: string | null; reason?: string | null; toOrder?: number | null },
): Promise<void> {
  await trx('document_events').insert({
    organization_id: document.organization_id,
    document_id: document.id,
    task_id: event.taskId ?? null,
    kind: event.kind,
    reason: event.reason ?? null,
    to_order: event.toOrder ?? null,
    actor_user_id: actor?.userId ?? null,
    actor_one_time_user_id: actor?.oneTimeUser?.id ?? null,
    actor_organization_id: actor?.organizationId ?? null,
    created_at: event.at,
  });
}

/** Appends a document change to the workspace owner organization's operation log. */
export function logDocumentChange(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  document: Pick<DocumentRow, 'id' | 'organization_id'>,
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  return deps.oplog.append(trx, actor.req, {
    action,
    organizationId: document.organization_id,
    actorUserId: actor.userId,
    targetType: 'document',
    targetId: document.id,
    details: {
      ...details,
      ...(actor.organizationId === document.organization_id ? {} : { partnerOrganizationId: actor.organizationId }),
      ...(actor.oneTimeUser ? { oneTimeUserId: actor.oneTimeUser.id, oneTimeUserEmail: actor.oneTimeUser.email } : {}),
    },
  });
}
