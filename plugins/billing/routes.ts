/*
 * The billing operations: administrators of an organization read its closed statements (with their lines) and
 * download the stored PDF and CSV, and see the current month computed live; every statement is looked up within
 * the caller's organization (another organization's is 404). The service operator issues credit notes.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, perIp, type PluginRouter, tokyoMonth } from '../../core/plugins/index.ts';
import { type Ctx, ensureFiles, issuerOf, planAt } from './close.ts';
import { computeStatement } from './compute.ts';
import { issuerConfigured } from './config.ts';
import { issueCreditNote } from './credit-note.ts';
import { periodOf } from './months.ts';
import { detailsOf, statementBody, summaryOf } from './resource.ts';
import type { StatementRow } from './statement.ts';

const MANAGE = { permission: 'organization:manage' } as const;

async function ownStatement(ctx: Ctx, organizationId: string, statementId: string): Promise<StatementRow> {
  const row = await ctx
    .db('billing_statements')
    .where({ id: statementId, organization_id: organizationId })
    .first<StatementRow | undefined>();
  if (!row) throw new AppError('NOT_FOUND', { detail: 'No such statement.' });
  return row;
}

/** 401 unless the request carries the service operator's token (compared in constant time). */
function assertOperator(token: string | null, authorization: string | undefined): void {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (!token || !presented || !timingSafeEqual(digest(presented), digest(token))) {
    throw new AppError('UNAUTHENTICATED');
  }
}

export function billingRoutes(router: PluginRouter, ctx: Ctx): void {
  router.operation('listBillingStatements', MANAGE, async ({ principal, query }) => {
    const size = query['page[size]'] ?? 20;
    const page = query['page[number]'] ?? 1;
    const scope = () => ctx.db('billing_statements').where({ organization_id: principal.organizationId });
    const counted = await scope().count<{ count: string }[]>('* as count');
    // Newest month first; within a month the invoice, then its credit notes in the order issued.
    const rows = await scope()
      .orderBy([{ column: 'month', order: 'desc' }, { column: 'kind', order: 'desc' }, { column: 'created_at' }])
      .limit(size)
      .offset((page - 1) * size)
      .select<StatementRow[]>('id', 'statement');
    return {
      body: {
        data: rows.map((row) => ({
          type: 'BillingStatement' as const,
          id: row.id,
          attributes: summaryOf(row.statement, 'closed'),
        })),
        meta: { total: Number(counted[0]?.count ?? 0) },
      },
    };
  });

  router.operation('getBillingPreview', MANAGE, async ({ principal }) => {
    const organizationId = principal.organizationId;
    const month = tokyoMonth(ctx.clock.now());
    const organization = await ctx
      .db('organizations')
      .where({ id: organizationId })
      .first('name', 'address', 'corporate_number');
    const plan = await planAt(ctx.db, organizationId, ctx.clock.now());
    // A signed-in principal's organization exists: anything else is a server fault (500).
    if (!organization || !plan) throw new Error(`billing: organization ${organizationId} not found`);
    const usage = await ctx.usage.month(organizationId, month);
    const figures = computeStatement(ctx.plans, plan.plan, plan.options, usage);
    const period = periodOf(month);
    const open = {
      kind: 'invoice' as const,
      month,
      number: null,
      issuedOn: null,
      dueOn: null,
      originalId: null,
      originalNumber: null,
      periodStart: period.start,
      periodEnd: period.end,
      plan: plan.plan,
      options: plan.options,
      usage,
      issuer: issuerOf(ctx.config),
      recipient: {
        name: organization.name as string,
        address: (organization.address as string) ?? '',
        registrationNumber: null,
        corporateNumber: (organization.corporate_number as string | null) ?? null,
      },
      paymentText: ctx.config.paymentText,
      reason: null,
      ...figures,
    };
    return {
      body: {
        data: {
          type: 'BillingStatement' as const,
          id: null,
          attributes: {
            ...summaryOf(open, 'open'),
            ...detailsOf(open),
            creditNotes: [],
            pdfSha256: null,
            csvSha256: null,
          },
        },
        // While the issuer is the embedded example, no month is ever closed: the screen says so.
        meta: { issuerConfigured: issuerConfigured(ctx.config) },
      },
    };
  });

  router.operation('getBillingStatement', MANAGE, async ({ principal, params }) => {
    const row = await ownStatement(ctx, principal.organizationId, params.statementId);
    return { body: await statementBody(ctx.db, row) };
  });

  router.operation('downloadBillingStatementPdf', MANAGE, async ({ principal, params }) => {
    // A statement claimed by a worker that died before its files were stored gets them now, from its facts.
    const row = await ensureFiles(ctx, await ownStatement(ctx, principal.organizationId, params.statementId));
    return {
      // PGlite gives bytea as a Uint8Array, which Koa would send as JSON: a Buffer is sent as bytes.
      body: Buffer.from(row.pdf!),
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${row.number}.pdf"`,
      },
    };
  });

  router.operation('downloadBillingStatementCsv', MANAGE, async ({ principal, params }) => {
    const row = await ensureFiles(ctx, await ownStatement(ctx, principal.organizationId, params.statementId));
    return {
      body: Buffer.from(row.csv!),
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${row.number}.csv"`,
      },
    };
  });

  router.operation('issueBillingCreditNote', { rateLimit: [perIp('operatorTokenPerIp')] }, async ({ header, body }) => {
    assertOperator(ctx.config.operatorToken, header('authorization'));
    const { invoiceNumber, reason, amount, requestId } = body.data.attributes;
    const original = await ctx.db('billing_statements').where({ number: invoiceNumber, kind: 'invoice' }).first('id');
    if (!original) throw new AppError('NOT_FOUND', { detail: `No invoice ${invoiceNumber}.` });
    // The same requestId again (a retry) answers the credit note issued for it: never a second one.
    const row = await issueCreditNote(ctx, {
      originalId: original.id,
      reason,
      amount: amount ?? undefined,
      requestId: requestId ?? undefined,
    });
    return { status: 201, body: await statementBody(ctx.db, row) };
  });
}
