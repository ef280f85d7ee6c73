/*
 * Drafts: a business flow created with `draft: true` stays `draft` (its documents too) while the sender prepares it
 * with the usual operations (upload, task plan with fields, one-time invitations): no task is live and no mail goes
 * out. Only editors of the owner organization see it (access.ts).
 *
 *   sendDraft(deps, trx, principal, req, flowId, lockVersion)    -> the flow and its documents go live
 *   discardDraft(deps, trx, principal, req, flowId, lockVersion) -> the flow and everything in it is deleted
 *
 * Sending checks the draft is complete (a document, each with tasks, each scanned clean) and runs the plan's rules
 * again (the workspace or the plan may have changed since it was saved); then order 1 of every document is activated
 * (task mails), the invitations made while a draft are mailed (a guest whose task mail went now gets only that one:
 * it carries a live link), and the operation log records `business_flow.sent`.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { assertScanAllowsUse, latestVersion } from '../../files/scan.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import type { DocumentRow } from '../documents/model.ts';
import { sendInvitationMail } from '../one-time-users/invitation-mail.ts';
import { activateOrder } from '../tasks/model.ts';
import { recheckStoredPlan } from '../tasks/plan.ts';
import { logFlowChange } from './complete.ts';
import { actorOf, lockForChange } from './update-business-flow.ts';

/** The flow locked for a draft operation: owner-organization editor, lockVersion, and still a draft. */
async function lockDraft(trx: Knex.Transaction, principal: Principal, flowId: string, lockVersion: number) {
  const locked = await lockForChange(trx, principal, flowId, lockVersion);
  // access.ts already hides drafts from anyone but owner-organization editors; this keeps non-drafts out.
  if (locked.flow.status !== 'draft') throw new AppError('BUSINESS_FLOW_NOT_DRAFT');
  return locked;
}

/** Sends a draft: see the file comment. */
export async function sendDraft(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  flowId: string,
  lockVersion: number,
): Promise<void> {
  const { access, flow } = await lockDraft(trx, principal, flowId, lockVersion);
  const actor = actorOf(principal, req);
  const documents = (await trx('documents')
    .where({ business_flow_id: flowId })
    .whereNot('status', 'cancelled')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .forUpdate()) as DocumentRow[];
  if (documents.length === 0) throw new AppError('DRAFT_HAS_NO_DOCUMENTS');
  for (const [index, document] of documents.entries()) {
    const pointer = `/data/relationships/documents/${index}`;
    const params = { documentId: document.id, name: document.name };
    const base = `${pointer}/tasks`;
    const count = await recheckStoredPlan(deps, trx, access, actor, document.id, base);
    if (count === 0) throw new AppError('DRAFT_DOCUMENT_WITHOUT_TASKS', { pointer, params });
    try {
      assertScanAllowsUse(await latestVersion(trx, document.id));
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, { pointer, params });
      throw error;
    }
  }
  const now = deps.clock.now();
  await trx('business_flows')
    .where({ id: flowId })
    .update({ status: 'in_progress', updated_at: now, lock_version: trx.raw('lock_version + 1') });
  await trx('documents')
    .whereIn(
      'id',
      documents.map((d) => d.id),
    )
    .update({ status: 'in_progress', updated_at: now, lock_version: trx.raw('lock_version + 1') });
  for (const document of documents) await activateOrder(deps, trx, document, 1);
  const invitationsMailed = await mailPendingInvitations(deps, trx, principal, flowId);
  await logFlowChange(deps, trx, actor, flow, 'business_flow.sent', {
    documentIds: documents.map((d) => d.id),
    invitationsMailed,
  });
}

/**
 * Mails the invitations made while the flow was a draft. A guest whose task mail just went (it rotated their link:
 * link_expires_at is set) needs no second mail; the others get the invitation mail. Returns how many were mailed.
 */
async function mailPendingInvitations(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  flowId: string,
): Promise<number> {
  const pending: { id: string; link_expires_at: Date | null; email: string | null }[] = await trx(
    'one_time_invitations as i',
  )
    .join('one_time_users as u', 'u.id', 'i.one_time_user_id')
    .where({ 'i.business_flow_id': flowId, 'i.mail_pending': true })
    .whereIn('i.status', ['invited', 'registered'])
    .orderBy([{ column: 'i.created_at' }, { column: 'i.id' }])
    .select('i.id', 'i.link_expires_at', 'u.email');
  let mailed = 0;
  for (const invitation of pending) {
    if (invitation.link_expires_at || !invitation.email) {
      await trx('one_time_invitations').where({ id: invitation.id }).update({ mail_pending: false });
    } else if (await sendInvitationMail(deps, trx, principal, invitation.id)) {
      mailed += 1;
    }
  }
  return mailed;
}

/** Discards a draft: the flow, its documents, tasks, fields and one-time invitations are deleted (blobs: sweeper). */
export async function discardDraft(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  flowId: string,
  lockVersion: number,
): Promise<void> {
  const { flow } = await lockDraft(trx, principal, flowId, lockVersion);
  const documents: { id: string; name: string }[] = await trx('documents')
    .where({ business_flow_id: flowId })
    .select('id', 'name');
  const ids = documents.map((d) => d.id);
  if (ids.length > 0) {
    await trx('property_values').where({ target_type: 'document' }).whereIn('target_id', ids).delete();
  }
  await trx('property_values').where({ target_type: 'business_flow', target_id: flowId }).delete();
  // documents, versions, events, tasks, task_fields and one-time invitations go with the flow (ON DELETE CASCADE).
  await trx('business_flows').where({ id: flowId }).delete();
  await logFlowChange(deps, trx, actorOf(principal, req), flow, 'business_flow.draft_discarded', {
    name: flow.name,
    documents,
  });
}
