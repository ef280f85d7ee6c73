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
 * Makes sure the user has agreed to the terms in force: records the agreement when `acceptTermId` names them,
 * and refuses (422 TERMS_NOT_AGREED) when the user has not agreed and does not agree now.
 */
export async function ensureTermsAccepted(
  trx: Knex.Transaction,
  userId: string,
  acceptTermId: string | undefined,
  now: Date,
): Promise<void> {
  const terms = await currentTerms(trx, now);
  const accepted = await trx('term_acceptances').where({ user_id: userId, term_id: terms.id }).first('term_id');
  if (accepted) return;
  if (acceptTermId !== terms.id) {
    throw new AppError('TERMS_NOT_AGREED', { pointer: '/data/attributes/acceptTermId' });
  }
  await trx('term_acceptances').insert({ user_id: userId, term_id: terms.id, accepted_at: now });
}
