/*
 * The mails of one-time users: the task-assigned mail when a task of theirs becomes active, and the completed mail
 * when the flow they worked on completes (so they can come back for the signed PDF). Each goes to the address they
 * proved (or were invited at) with a new personal link and access code (rotateInvitationLink kills the earlier ones),
 * and only while their invitation to the flow is live (invited or registered): a guest whose invitation was
 * cancelled gets nothing.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../../deps.ts';
import type { Locale } from '../../../http/errors.ts';
import { rotateInvitationLink } from '../links.ts';
import { mailTime } from '../model.ts';

interface GuestRecipient {
  invitation_id: string;
  organization_id: string;
  name: string | null;
  email: string;
  locale: Locale;
}

/** Which guests a mail goes to: those the given tasks name, or every guest holding a task of one flow. */
export type GuestMailTarget = { taskIds: string[] } | { businessFlowId: string };

/** The one-time users of `target`'s tasks, with their live invitation to the task's flow. */
function guestRecipients(trx: Knex.Transaction, target: GuestMailTarget): Promise<GuestRecipient[]> {
  const query = trx('tasks as t')
    .join('documents as d', 'd.id', 't.document_id')
    .join('one_time_users as u', 'u.id', 't.one_time_user_id')
    .join('one_time_invitations as i', (j) =>
      j.on('i.one_time_user_id', 'u.id').andOn('i.business_flow_id', 'd.business_flow_id'),
    );
  if ('taskIds' in target) query.whereIn('t.id', target.taskIds);
  else query.where('d.business_flow_id', target.businessFlowId).whereNot('t.status', 'cancelled');
  return query
    .where('t.assignee_kind', 'one_time_user')
    .whereIn('i.status', ['invited', 'registered'])
    .whereNotNull('u.email')
    .distinct('i.id as invitation_id', 'i.organization_id', 'u.name', 'u.email', 'u.locale');
}

/**
 * Queues the mail `kind` to each one-time user of `target`; `paramsFor` gives the mail's placeholders in the
 * recipient's language. Returns how many were queued.
 */
export async function mailOneTimeUsers(
  deps: CoreDeps,
  trx: Knex.Transaction,
  kind: 'one-time-task-assigned' | 'one-time-business-flow-completed',
  target: GuestMailTarget,
  paramsFor: (locale: Locale) => Record<string, string>,
): Promise<number> {
  if ('taskIds' in target && target.taskIds.length === 0) return 0;
  let queued = 0;
  for (const guest of await guestRecipients(trx, target)) {
    const link = await rotateInvitationLink(deps, trx, guest.invitation_id);
    const id = await deps.mailer.send(trx, {
      kind,
      to: guest.email,
      locale: guest.locale,
      params: {
        ...paramsFor(guest.locale),
        userName: guest.name ?? guest.email,
        link: link.url,
        accessCode: link.accessCode,
        expiresAt: mailTime(link.expiresAt),
      },
      organizationId: guest.organization_id,
      userId: null,
    });
    if (id) queued += 1;
  }
  return queued;
}
