import type { Knex } from 'knex';
import type { Locale } from '../../http/errors.ts';
import { AppError } from '../../http/errors.ts';

export interface Terms {
  id: string;
  version: string;
  titleJa: string;
  titleEn: string;
  bodyJa: string;
  bodyEn: string;
  effectiveAt: Date;
}

/** The terms of use in force at `now`: the latest whose effective date has come. */
export async function currentTerms(knex: Knex, now: Date): Promise<Terms> {
  const row = await knex('terms').where('effective_at', '<=', now).orderBy('effective_at', 'desc').first();
  if (!row) throw new AppError('NOT_FOUND', { detail: 'No terms of use are in force.' });
  return {
    id: row.id,
    version: row.version,
    titleJa: row.title_ja,
    titleEn: row.title_en,
    bodyJa: row.body_ja,
    bodyEn: row.body_en,
    effectiveAt: row.effective_at,
  };
}

export function termsResource(terms: Terms, locale: Locale) {
  return {
    type: 'Terms' as const,
    id: terms.id,
    attributes: {
      version: terms.version,
      title: locale === 'ja' ? terms.titleJa : terms.titleEn,
      body: locale === 'ja' ? terms.bodyJa : terms.bodyEn,
      effectiveAt: terms.effectiveAt.toISOString(),
    },
  };
}

/**
 * The consent the user still owes: `first` when they have never agreed to any terms (an invited user's first
 * sign-in), `revised` when they agreed to an older version only, null when they agreed to the terms in force.
 */
export type TermsConsent = 'first' | 'revised';

export async function termsConsentOwed(knex: Knex, userId: string, now: Date): Promise<TermsConsent | null> {
  const terms = await currentTerms(knex, now);
  const accepted = await knex('term_acceptances').where({ user_id: userId }).pluck('term_id');
  if (accepted.includes(terms.id)) return null;
  return accepted.length === 0 ? 'first' : 'revised';
}

/**
 * Makes sure the user has agreed to the terms in force: records the agreement when `acceptTermId` names them,
 * and refuses (422 TERMS_NOT_AGREED, `termsConsent` param `first` or `revised` so the screen words the consent
 * right) when the user has not agreed and does not agree now.
 */
export async function ensureTermsAccepted(
  trx: Knex.Transaction,
  userId: string,
  acceptTermId: string | undefined,
  now: Date,
): Promise<void> {
  const terms = await currentTerms(trx, now);
  const owed = await termsConsentOwed(trx, userId, now);
  if (!owed) return;
  if (acceptTermId !== terms.id) {
    throw new AppError('TERMS_NOT_AGREED', {
      pointer: '/data/attributes/acceptTermId',
      params: { termsConsent: owed },
    });
  }
  await trx('term_acceptances').insert({ user_id: userId, term_id: terms.id, accepted_at: now });
}
