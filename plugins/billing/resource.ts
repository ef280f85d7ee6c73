import type { Knex } from 'knex';
import type { StatementFigures } from './compute.ts';
import type { StatementDocument, StatementRow } from './statement.ts';

/** The list entry of a statement (BillingStatementSummary). */
export function summaryOf(
  doc: Pick<StatementDocument, 'kind' | 'month' | 'originalId' | 'originalNumber'> &
    Pick<StatementFigures, 'subtotal' | 'tax' | 'total'> & { number: string | null; issuedOn: string | null },
  status: 'open' | 'closed',
) {
  return {
    kind: doc.kind,
    status,
    month: doc.month,
    number: doc.number,
    issuedOn: doc.issuedOn,
    subtotal: doc.subtotal,
    tax: doc.tax,
    total: doc.total,
    originalId: doc.originalId,
    originalNumber: doc.originalNumber,
  };
}

/** A closed statement with everything it says (BillingStatementResponse). */
export async function statementBody(db: Knex, row: StatementRow) {
  const doc = row.statement;
  const creditNotes =
    row.kind === 'invoice'
      ? await db('billing_statements')
          .where({ original_id: row.id, kind: 'creditNote', organization_id: row.organization_id })
          .orderBy('created_at')
          .select<{ id: string; number: string; total: string | number }[]>('id', 'number', 'total')
      : [];
  return {
    data: {
      type: 'BillingStatement' as const,
      id: row.id,
      attributes: {
        ...summaryOf(doc, 'closed'),
        ...detailsOf(doc),
        creditNotes: creditNotes.map((c) => ({ id: c.id, number: c.number, total: Number(c.total) })),
        pdfSha256: row.pdf_sha256,
        csvSha256: row.csv_sha256,
      },
    },
  };
}

/** The fields a statement has beyond its summary. */
export function detailsOf(doc: Omit<StatementDocument, 'number' | 'issuedOn' | 'dueOn'> & { dueOn: string | null }) {
  return {
    plan: doc.plan,
    options: doc.options as 'aiOcr'[],
    periodStart: doc.periodStart,
    periodEnd: doc.periodEnd,
    dueOn: doc.dueOn,
    issuer: doc.issuer,
    recipient: doc.recipient,
    lines: doc.lines,
    taxTotals: doc.taxTotals,
    paymentText: doc.paymentText,
    reason: doc.reason,
  };
}
