/*
 * The signed-in guest and their consent to the terms of use in force: until it is recorded (with time, IP and user
 * agent), every guest work operation answers 403 ONE_TIME_TERMS_REQUIRED.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { GuestPrincipal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { currentTerms } from '../terms/service.ts';

/** getOneTimeMe's answer. */
export async function guestMe(knex: Knex, guest: GuestPrincipal, now: Date) {
  const terms = await currentTerms(knex, now);
  const flow = await knex('business_flows as f')
    .join('organizations as o', 'o.id', 'f.organization_id')
    .where('f.id', guest.businessFlowId)
    .first('f.name', 'o.name as organization_name');
  const accepted = await knex('guest_term_consents')
    .where({ invitation_id: guest.invitationId, term_id: terms.id })
    .first('term_id');
  return {
    data: {
      type: 'OneTimeMe' as const,
      id: guest.oneTimeUserId,
      attributes: {
        name: guest.name,
        email: guest.email,
        locale: guest.locale,
        businessFlowId: guest.businessFlowId,
        businessFlowName: flow.name as string,
        organizationName: flow.organization_name as string,
        termsAccepted: Boolean(accepted),
        currentTerm: { id: terms.id, version: terms.version },
      },
    },
  };
}

export async function acceptTerms(
  deps: CoreDeps,
  trx: Knex.Transaction,
  guest: GuestPrincipal,
  req: RequestContext,
  termId: string,
): Promise<void> {
  const now = deps.clock.now();
  const terms = await currentTerms(trx, now);
  if (termId !== terms.id) throw new AppError('TERMS_NOT_AGREED', { pointer: '/data/attributes/termId' });
  const inserted = await trx('guest_term_consents')
    .insert({
      invitation_id: guest.invitationId,
      term_id: terms.id,
      accepted_at: now,
      ip: req.ip,
      user_agent: req.userAgent,
    })
    .onConflict(['invitation_id', 'term_id'])
    .ignore()
    .returning('term_id');
  if (inserted.length === 0) return;
  await deps.oplog.append(trx, req, {
    action: 'one_time_user.terms_accepted',
    organizationId: guest.organizationId,
    targetType: 'one_time_invitation',
    targetId: guest.invitationId,
    details: { oneTimeUserId: guest.oneTimeUserId, email: guest.email, termId: terms.id, version: terms.version },
  });
}
