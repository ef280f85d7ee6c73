/*
 * Inviting a one-time user to a business flow. By e-mail: the one-time user is found by address in the workspace (any
 * letter case) or created, and the invitation mail goes at once. By QR code: a one-time user without address is
 * created (name optional), and the member opens the QR code next. Either way the one-time user becomes a participant
 * of the workspace.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { isUniqueViolation } from '../users/validation.ts';
import { editableFlow } from './access.ts';
import { sendInvitationMail } from './invitation-mail.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const pointer = (field: string) => `/data/attributes/${field}`;

export interface InviteInput {
  channel: 'email' | 'qr';
  name?: string;
  email?: string;
  locale?: 'ja' | 'en';
}

function checked(input: InviteInput): { name: string | null; email: string | null } {
  const name = input.name?.trim() || null;
  const email = input.email?.trim() || null;
  const problems: FieldError[] = [];
  if (input.channel === 'email') {
    if (!name) problems.push({ code: 'VALIDATION_FAILED', pointer: pointer('name'), detail: 'name is required' });
    if (!email) problems.push({ code: 'VALIDATION_FAILED', pointer: pointer('email'), detail: 'email is required' });
    else if (!EMAIL.test(email)) problems.push({ code: 'EMAIL_INVALID', pointer: pointer('email') });
  } else if (input.email !== undefined) {
    problems.push({ code: 'VALIDATION_FAILED', pointer: pointer('email'), detail: 'a QR guest enters the address' });
  }
  if (problems.length) throw AppError.invalid(problems);
  return { name, email };
}

/** Finds the workspace's one-time user with this address, or creates one; locked for the caller's transaction. */
async function oneTimeUserFor(
  trx: Knex.Transaction,
  principal: Principal,
  flow: { organization_id: string; workspace_id: string },
  fields: { name: string | null; email: string | null; locale: 'ja' | 'en' },
): Promise<string> {
  if (fields.email) {
    const existing = await trx('one_time_users')
      .where({ workspace_id: flow.workspace_id })
      .whereRaw('lower(email) = lower(?)', [fields.email])
      .forUpdate()
      .first('id');
    if (existing) return existing.id as string;
  }
  try {
    const [row] = await trx('one_time_users')
      .insert({
        organization_id: flow.organization_id,
        workspace_id: flow.workspace_id,
        name: fields.name,
        email: fields.email,
        locale: fields.locale,
        created_by: principal.userId,
      })
      .returning('id');
    return row.id as string;
  } catch (error) {
    // Another request created the same address at this moment: the caller retries and finds it.
    if (isUniqueViolation(error, 'one_time_users_workspace_email')) throw new AppError('UPDATED_BY_ANOTHER_USER');
    throw error;
  }
}

/** Invites; returns the new invitation's id. */
export async function inviteOneTimeUser(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  businessFlowId: string,
  input: InviteInput,
): Promise<string> {
  const { flow } = await editableFlow(trx, principal, businessFlowId);
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  const fields = checked(input);
  const oneTimeUserId = await oneTimeUserFor(trx, principal, flow, { ...fields, locale: input.locale ?? req.locale });
  const taken = await trx('one_time_invitations')
    .where({ one_time_user_id: oneTimeUserId, business_flow_id: flow.id })
    .first('id');
  if (taken) throw new AppError('ONE_TIME_INVITATION_EXISTS');
  await trx('workspace_participants')
    .insert({
      organization_id: flow.organization_id,
      workspace_id: flow.workspace_id,
      kind: 'one_time_user',
      one_time_user_id: oneTimeUserId,
      is_public: false,
      is_editable: false,
    })
    .onConflict(['workspace_id', 'one_time_user_id'])
    .ignore();
  const [invitation] = await trx('one_time_invitations')
    .insert({
      organization_id: flow.organization_id,
      one_time_user_id: oneTimeUserId,
      business_flow_id: flow.id,
      channel: input.channel,
      invited_by: principal.userId,
    })
    .returning('id');
  const invitationId = invitation.id as string;
  if (input.channel === 'email') await sendInvitationMail(deps, trx, principal, invitationId);
  await deps.oplog.append(trx, req, {
    action: 'one_time_invitation.created',
    organizationId: principal.organizationId,
    actorUserId: principal.userId,
    targetType: 'one_time_invitation',
    targetId: invitationId,
    details: { oneTimeUserId, email: fields.email, businessFlowId: flow.id, channel: input.channel },
  });
  return invitationId;
}
