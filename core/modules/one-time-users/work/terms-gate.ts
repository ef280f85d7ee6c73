/*
 * The terms gate of the guest's work: every guest work operation answers 403 ONE_TIME_TERMS_REQUIRED until the guest
 * accepted the terms of use in force (a newer version coming into force asks for consent again).
 */
import type { Knex } from 'knex';
import type { GuestPrincipal } from '../../../http/context.ts';
import { AppError } from '../../../http/errors.ts';
import { currentTerms } from '../../terms/service.ts';

/** Throws ONE_TIME_TERMS_REQUIRED unless the guest's accepted terms are the terms in force at `now`. */
export async function assertGuestAcceptedTerms(knex: Knex, guest: GuestPrincipal, now: Date): Promise<void> {
  if (!guest.acceptedTermId) throw new AppError('ONE_TIME_TERMS_REQUIRED');
  const terms = await currentTerms(knex, now);
  if (terms.id !== guest.acceptedTermId) throw new AppError('ONE_TIME_TERMS_REQUIRED');
}
