/*
 * Closing a month: each organization's invoice is issued once and never changes.
 *
 * 1. The claim (one short transaction under an advisory lock on the organization and month): if no invoice
 *    exists, the figures are computed from the usage counters as they are now, with the plan at the month's close,
 *    an invoice number is drawn and the row is written with every fact. The unique (organization, month) index is
 *    the last guard against two workers. Counters that arrive later for that month change nothing.
 * 2. The files (outside any transaction: PDF work and the timestamp request never run in one): the PDF and the CSV
 *    are made from the stored facts, the PDF is signed, and both are written once (`WHERE pdf_sha256 IS NULL`; the
 *    table's trigger refuses any later change). A worker that dies between the two leaves a claimed row without
 *    files; the next run (or a download) makes them from the same facts.
 *
 * The plan of a month is the plan the organization had at the month's close (the first instant of the next month,
 * JST): a plan changed during the month is charged for the whole month at the plan in force at its end; a change
 * after the end (before the job ran) is undone by reading the `before` of the first `organization.plan_changed` log
 * entry after it. A free-plan month with nothing to pay gets no invoice.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { PluginContext } from '../../core/plugins/index.ts';
import { tokyoMonth } from '../../core/plugins/index.ts';
import { computeStatement, type PlanCode } from './compute.ts';
import { type BillingConfig, issuerConfigured } from './config.ts';
import { renderStatementCsv } from './invoice-csv.ts';
import { renderStatementPdf } from './invoice-pdf.ts';
import { addDays, monthEnd, periodOf, tokyoDate } from './months.ts';
import { billingStartMonth } from './start.ts';
import { invoiceNumber, type StatementDocument, type StatementRow } from './statement.ts';

export type Ctx = PluginContext<BillingConfig>;

export const issuerOf = (config: BillingConfig) => ({
  name: config.issuerName,
  address: config.issuerAddress,
  registrationNumber: config.registrationNumber,
  corporateNumber: null,
});

/** The plan and options an organization had at an instant: the current ones unless changed since. */
export async function planAt(db: Knex, organizationId: string, at: Date) {
  const organization = await db('organizations').where({ id: organizationId }).first('plan', 'options');
  if (!organization) return null;
  const change = await db('operation_logs')
    .where({ organization_id: organizationId, action: 'organization.plan_changed' })
    .where('created_at', '>=', at)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first('details');
  const before = change?.details?.before as { plan?: PlanCode; options?: string[] } | undefined;
  if (before?.plan) return { plan: before.plan, options: [...(before.options ?? [])].sort() };
  return { plan: organization.plan as PlanCode, options: [...((organization.options as string[]) ?? [])].sort() };
}

/** Writes the invoice row of a month (or finds it); null when there is nothing to bill. */
async function claim(ctx: Ctx, organizationId: string, month: string): Promise<StatementRow | null> {
  return ctx.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`billing:${organizationId}:${month}`]);
    const existing = await trx('billing_statements')
      .where({ organization_id: organizationId, month, kind: 'invoice' })
      .first<StatementRow>();
    if (existing) return existing;
    const organization = await trx('organizations')
      .where({ id: organizationId })
      .first('name', 'address', 'corporate_number');
    const plan = await planAt(trx, organizationId, monthEnd(month));
    if (!organization || !plan) return null;
    const usage = await ctx.usage.month(organizationId, month, trx);
    const figures = computeStatement(ctx.plans, plan.plan, plan.options, usage);
    if (plan.plan === 'free' && figures.total === 0) return null;
    const [{ sequence }] = (await trx.raw(`SELECT nextval('billing_invoice_number_seq')::int AS sequence`)).rows;
    const now = ctx.clock.now();
    const issuedOn = tokyoDate(now);
    const period = periodOf(month);
    const statement: StatementDocument = {
      kind: 'invoice',
      month,
      number: invoiceNumber(month, sequence),
      issuedOn,
      periodStart: period.start,
      periodEnd: period.end,
      dueOn: addDays(issuedOn, ctx.config.paymentDueDays),
      plan: plan.plan,
      options: plan.options,
      usage,
      issuer: issuerOf(ctx.config),
      recipient: {
        name: organization.name,
        address: organization.address ?? '',
        registrationNumber: null,
        corporateNumber: organization.corporate_number ?? null,
      },
      paymentText: ctx.config.paymentText,
      reason: null,
      originalId: null,
      originalNumber: null,
      ...figures,
    };
    const [row] = await trx('billing_statements')
      .insert({
        id: randomUUID(),
        organization_id: organizationId,
        kind: 'invoice',
        month,
        number: statement.number,
        original_id: null,
        subtotal: figures.subtotal,
        tax: figures.tax,
        total: figures.total,
        statement: JSON.stringify(statement),
        created_at: now,
      })
      .returning('*');
    ctx.log.info({ organizationId, month, number: statement.number }, 'billing: invoice issued');
    return row as StatementRow;
  });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Makes, signs and stores a statement's PDF and CSV once; a row that has them is returned as it is. */
export async function ensureFiles(ctx: Ctx, row: StatementRow): Promise<StatementRow> {
  if (row.pdf_sha256) return row;
  const document = row.statement;
  const unsigned = await renderStatementPdf(document, row.created_at);
  const title = document.kind === 'creditNote' ? '返還請求書' : '請求書';
  const pdf = Buffer.from(
    await ctx.sealPdf(unsigned, { reason: `${title} ${document.number}`, claimedTime: ctx.clock.now() }),
  );
  const csv = renderStatementCsv(document);
  await ctx
    .db('billing_statements')
    .where({ id: row.id })
    .whereNull('pdf_sha256')
    .update({ pdf, pdf_sha256: sha256(pdf), csv, csv_sha256: sha256(csv), files_at: ctx.clock.now() });
  // Another worker may have stored its own files first: what is stored is what counts.
  return ctx.db('billing_statements').where({ id: row.id }).first<StatementRow>();
}

/**
 * Why a month may not be closed, or null when it may: it has not ended; the issuer is still the embedded example
 * (no numbered, signed invoice ever names it); or billing started in it or later (its counters are incomplete).
 */
export async function whyNotClosable(ctx: Ctx, month: string): Promise<string | null> {
  const now = ctx.clock.now();
  if (month >= tokyoMonth(now)) return 'it has not ended yet';
  if (!issuerConfigured(ctx.config)) return 'the issuer is the example; set KEIYAKU_PLUGIN_BILLING_ISSUER_*';
  const started = await billingStartMonth(ctx.db, now);
  if (month <= started) return `billing started in ${started}; only later months are billed`;
  return null;
}

/** Issues (once) an organization's invoice of an ended month, with its files; null when there is nothing to bill. */
export async function closeStatement(ctx: Ctx, organizationId: string, month: string): Promise<StatementRow | null> {
  const refused = await whyNotClosable(ctx, month);
  if (refused) throw new Error(`billing: month ${month} is not closed: ${refused}`);
  const row = await claim(ctx, organizationId, month);
  return row ? ensureFiles(ctx, row) : null;
}

/**
 * Closes a month for every organization that existed before it ended; safe to run again and from two workers at
 * once. One organization's failure does not stop the others; the run then fails so the job is retried.
 */
export async function closeMonth(ctx: Ctx, month: string): Promise<{ issued: number; failed: number }> {
  const refused = await whyNotClosable(ctx, month);
  if (refused) {
    ctx.log.warn({ month }, `billing: month not closed (${refused}); nothing done`);
    return { issued: 0, failed: 0 };
  }
  const organizations = await ctx
    .db('organizations as o')
    .where('o.created_at', '<', monthEnd(month))
    // Invoices with their files are done; a claimed one without files gets them now.
    .whereNotExists((q) =>
      q
        .from('billing_statements as s')
        .whereRaw('s.organization_id = o.id')
        .where({ 's.month': month, 's.kind': 'invoice' })
        .whereNotNull('s.pdf_sha256'),
    )
    .orderBy('o.id')
    .pluck('o.id');
  let issued = 0;
  let failed = 0;
  for (const organizationId of organizations as string[]) {
    try {
      if (await closeStatement(ctx, organizationId, month)) issued++;
    } catch (error) {
      failed++;
      ctx.log.error({ err: error, organizationId, month }, 'billing: closing failed');
    }
  }
  if (failed > 0) throw new Error(`billing: closing ${month} failed for ${failed} organization(s)`);
  return { issued, failed };
}
