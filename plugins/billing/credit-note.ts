/*
 * A correction of an issued invoice is never an edit: it is a credit note (返還請求書), a statement of its own with
 * negative amounts that names its original. The operator issues it (the operator route `issueBillingCreditNote`,
 * authenticated by KEIYAKU_PLUGIN_BILLING_OPERATOR_SECRET): the whole invoice reversed, or one adjustment line of a
 * given amount. A request carrying a requestId already used for that invoice answers the credit note issued for it
 * (an operator retrying after a timeout issues nothing twice; the reason and amount of the retry are not compared).
 * Its tax is the negated tax of its amount per rate, rounded down once as on the invoice.
 */
import { randomUUID } from 'node:crypto';
import { AppError, tokyoMonth } from '../../core/plugins/index.ts';
import { adjustmentOf, reversalOf } from './compute.ts';
import { type Ctx, ensureFiles, issuerOf } from './close.ts';
import { tokyoDate } from './months.ts';
import { creditNoteNumber, type StatementDocument, type StatementRow } from './statement.ts';

export interface CreditNoteInput {
  /** The invoice corrected. */
  originalId: string;
  reason: string;
  /** Yen, tax excluded, to give back; absent reverses the whole invoice. */
  amount?: number;
  /** The client's id of the request, unique per invoice: the same id again answers the credit note issued for it. */
  requestId?: string;
}

/** Issues a credit note against an invoice, with its files; 404 for an unknown invoice, 422 when over-credited. */
export async function issueCreditNote(ctx: Ctx, input: CreditNoteInput): Promise<StatementRow> {
  const row = await ctx.db.transaction(async (trx) => {
    const original = await trx('billing_statements')
      .where({ id: input.originalId, kind: 'invoice' })
      .forUpdate()
      .first<StatementRow>();
    if (!original) throw new AppError('NOT_FOUND', { detail: 'No such invoice.' });
    // Under the invoice's row lock: a retry running at the same time as its first attempt waits and finds it.
    if (input.requestId !== undefined) {
      const earlier = await trx('billing_statements')
        .where({ original_id: original.id, kind: 'creditNote', request_id: input.requestId })
        .first<StatementRow>();
      if (earlier) return earlier;
    }
    const credited = await trx('billing_statements')
      .where({ original_id: original.id, kind: 'creditNote' })
      .sum<{ sum: string | null }>('subtotal as sum')
      .first();
    const remaining = Number(original.subtotal) + Number(credited?.sum ?? 0);
    const figures =
      input.amount === undefined
        ? reversalOf(original.statement)
        : adjustmentOf(input.amount, ctx.plans.consumptionTaxPercent);
    if (-figures.subtotal > remaining || figures.subtotal === 0) {
      throw AppError.invalid([{ code: 'BILLING_CREDIT_EXCEEDS_INVOICE', pointer: '/data/attributes/amount' }]);
    }
    const [{ sequence }] = (await trx.raw(`SELECT nextval('billing_credit_note_number_seq')::int AS sequence`)).rows;
    const now = ctx.clock.now();
    const source = original.statement;
    const statement: StatementDocument = {
      ...source,
      kind: 'creditNote',
      number: creditNoteNumber(tokyoMonth(now), sequence),
      issuedOn: tokyoDate(now),
      dueOn: null,
      issuer: issuerOf(ctx.config),
      paymentText: null,
      reason: input.reason,
      originalId: original.id,
      originalNumber: original.number,
      ...figures,
    };
    const [inserted] = await trx('billing_statements')
      .insert({
        id: randomUUID(),
        organization_id: original.organization_id,
        kind: 'creditNote',
        month: original.month,
        number: statement.number,
        original_id: original.id,
        request_id: input.requestId ?? null,
        subtotal: figures.subtotal,
        tax: figures.tax,
        total: figures.total,
        statement: JSON.stringify(statement),
        created_at: now,
      })
      .returning('*');
    return inserted as StatementRow;
  });
  return ensureFiles(ctx, row);
}
