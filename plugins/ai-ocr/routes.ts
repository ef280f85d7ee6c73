/*
 * The AI-OCR operations: a document's latest reading with its proposals (anyone who may read the document;
 * partners see public properties only), a reading asked for by hand (editors of the owner organization), the
 * decisions on proposals (written as updateDocument writes), and the organization's settings.
 */
import type { Knex } from 'knex';
import {
  AppError,
  assertPlanFeature,
  assertScanAllowsUse,
  latestVersion,
  perUser,
  type PluginRouter,
  type Principal,
} from '../../core/plugins/index.ts';
import {
  allowanceOf,
  assertAllowance,
  type Ctx,
  latestReading,
  pagesOf,
  type Position,
  proposalsOf,
  queueReading,
  readingResource,
} from './readings.ts';

async function readingBody(ctx: Ctx, documentId: string, forPartner: boolean) {
  const reading = await latestReading(ctx.db, documentId);
  return readingResource(reading, reading ? await proposalsOf(ctx.db, reading.id, forPartner) : [], forPartner);
}

/**
 * The document as the caller may read it (404 otherwise), when its owner organization has the AI-OCR option too
 * (403 PLAN_FEATURE_UNAVAILABLE: the router checked the caller's own plan), with its flow's status.
 */
async function ocrDocument(ctx: Ctx, principal: Principal, documentId: string) {
  const document = await ctx.documents.assertReadable(documentId, principal);
  const owner = await ctx.db('organizations').where({ id: document.organizationId }).first('plan', 'options');
  assertPlanFeature({ plan: owner.plan, options: owner.options ?? [] }, 'aiOcr');
  const flow = await ctx.db('business_flows').where({ id: document.businessFlowId }).first('status');
  return { ...document, flowCancelled: flow?.status === 'cancelled' };
}

async function settingsBody(ctx: Ctx, organizationId: string) {
  const row = await ctx.db('ai_ocr_settings').where({ organization_id: organizationId }).first();
  const { allowance, used, month } = await allowanceOf(ctx, ctx.db, organizationId);
  return {
    data: {
      type: 'OcrSettings' as const,
      attributes: {
        autoAcceptConfidence: (row?.auto_accept_confidence ?? null) as number | null,
        monthlyPageAllowance: allowance,
        pagesUsed: used,
        month,
      },
    },
  };
}

/** The positions a manual reading uses: the named template's, else the document's own template's. */
async function positionsFor(ctx: Ctx, principal: Principal, documentId: string, templateId: string | undefined) {
  const document = await ctx.db('documents').where({ id: documentId }).first('document_template_id');
  const id = templateId ?? document?.document_template_id;
  if (!id) throw new AppError('OCR_NO_READING_POSITIONS');
  const template = await ctx
    .db('document_templates')
    .where({ id, organization_id: principal.organizationId })
    .first('id', 'reading_positions');
  if (!template) {
    if (templateId)
      throw AppError.invalid([{ code: 'REFERENCE_NOT_FOUND', pointer: '/data/attributes/documentTemplateId' }]);
    throw new AppError('OCR_NO_READING_POSITIONS');
  }
  const positions = template.reading_positions as Position[];
  if (positions.length === 0) throw new AppError('OCR_NO_READING_POSITIONS');
  return { templateId: template.id as string, positions };
}

const running = (db: Knex, documentId: string) =>
  db('ai_ocr_readings').where({ document_id: documentId }).whereIn('status', ['queued', 'reading']).first('id');

export function ocrRoutes(router: PluginRouter, ctx: Ctx): void {
  router.operation('getDocumentOcr', {}, async ({ principal, params }) => {
    const document = await ocrDocument(ctx, principal, params.documentId);
    return { body: await readingBody(ctx, params.documentId, !document.isOwnerOrganization) };
  });

  router.operation(
    'startDocumentOcr',
    { rateLimit: [perUser('ocrReadsPerUser')] },
    async ({ principal, params, body }) => {
      const document = await ocrDocument(ctx, principal, params.documentId);
      if (!document.isOwnerOrganization) throw new AppError('FORBIDDEN');
      if (!document.canEdit) throw new AppError('WORKSPACE_EDIT_NOT_ALLOWED');
      if (document.flowCancelled) throw new AppError('BUSINESS_FLOW_CANCELLED');
      if (await running(ctx.db, params.documentId)) throw new AppError('OCR_ALREADY_RUNNING');
      const requested = body?.data?.attributes?.documentTemplateId;
      const { templateId, positions } = await positionsFor(ctx, principal, params.documentId, requested);
      await ctx.db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`ai-ocr:${document.organizationId}`]);
        const version = await latestVersion(trx, params.documentId);
        assertScanAllowsUse(version);
        if (await running(trx, params.documentId)) throw new AppError('OCR_ALREADY_RUNNING');
        const pages = pagesOf(positions, version.page_count).length;
        if (pages === 0) throw new AppError('OCR_NO_READING_POSITIONS');
        await assertAllowance(ctx, trx, document.organizationId, pages);
        const queued = await queueReading(ctx, trx, {
          organizationId: document.organizationId,
          documentId: params.documentId,
          version: { id: version.id, version: version.version, pageCount: version.page_count },
          templateId,
          positions,
          trigger: 'manual',
          requestedBy: principal.userId,
        });
        if (!queued) throw new AppError('OCR_ALREADY_RUNNING');
      });
      return { status: 202, body: await readingBody(ctx, params.documentId, false) };
    },
  );

  router.operation('decideDocumentOcr', {}, async ({ principal, params, body, req }) => {
    const document = await ocrDocument(ctx, principal, params.documentId);
    // Deciding is changing the document's values, rejections included: editors only, never on a cancelled flow.
    if (!document.canEdit) throw new AppError('WORKSPACE_EDIT_NOT_ALLOWED');
    if (document.flowCancelled) throw new AppError('BUSINESS_FLOW_CANCELLED');
    const decisions = body.data.attributes.decisions;
    const at = (i: number, field: string) => `/data/attributes/decisions/${i}/${field}`;
    const problems = decisions.flatMap((d, i) => [
      ...(decisions.findIndex((o) => o.proposalId === d.proposalId) !== i
        ? [{ code: 'VALIDATION_FAILED' as const, pointer: at(i, 'proposalId'), detail: 'decided twice' }]
        : []),
      ...(d.action === 'edit' && d.value === undefined
        ? [{ code: 'VALIDATION_FAILED' as const, pointer: at(i, 'value'), detail: 'edit needs a value' }]
        : []),
    ]);
    if (problems.length > 0) throw AppError.invalid(problems);
    const reading = await latestReading(ctx.db, params.documentId);
    await ctx.db.transaction(async (trx) => {
      const rows = reading
        ? ((await trx('ai_ocr_proposals as p')
            .join('custom_properties as c', 'c.id', 'p.property_id')
            .where('p.reading_id', reading.id)
            .whereIn(
              'p.id',
              decisions.map((d) => d.proposalId),
            )
            .forUpdate('p')
            .select('p.id', 'p.property_id', 'p.value', 'p.status', 'c.public_to_client', 'c.editable_by_client')) as {
            id: string;
            property_id: string;
            value: string | null;
            status: string;
            public_to_client: boolean;
            editable_by_client: boolean;
          }[])
        : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      const missing = decisions.flatMap((d, i) => {
        const row = byId.get(d.proposalId);
        return row && (document.isOwnerOrganization || row.public_to_client)
          ? []
          : [{ code: 'REFERENCE_NOT_FOUND' as const, pointer: at(i, 'proposalId') }];
      });
      if (missing.length > 0) throw AppError.invalid(missing);
      // Values read from a file that has since been replaced are not the contract's any more.
      const newest = await latestVersion(trx, params.documentId);
      if (reading!.document_version_id !== newest.id) throw new AppError('OCR_READING_OUTDATED');
      const values: { propertyId: string; value: string | number | null }[] = [];
      const indexOfValue: number[] = [];
      decisions.forEach((decision, i) => {
        const row = byId.get(decision.proposalId)!;
        if (row.status !== 'proposed') throw new AppError('OCR_PROPOSAL_DECIDED', { pointer: at(i, 'proposalId') });
        if (!document.isOwnerOrganization && !row.editable_by_client) {
          throw new AppError('FORBIDDEN', { pointer: at(i, 'proposalId') });
        }
        if (decision.action === 'reject') return;
        const value = decision.action === 'edit' ? (decision.value ?? null) : row.value;
        if (decision.action === 'accept' && value === null) {
          throw AppError.invalid([{ code: 'OCR_VALUE_MISSING', pointer: at(i, 'value') }]);
        }
        values.push({ propertyId: row.property_id, value });
        indexOfValue.push(i);
      });
      // Written as updateDocument writes (rights, partners' rules, the cancelled flow), even when nothing changes.
      await ctx.documents.writeProperties(trx, {
        principal,
        req,
        documentId: params.documentId,
        values,
        via: 'ai-ocr',
        pointer: (k) => at(indexOfValue[k] ?? 0, 'value'),
      });
      const now = ctx.clock.now();
      for (const decision of decisions) {
        const status = { accept: 'accepted', edit: 'edited', reject: 'rejected' }[decision.action];
        await trx('ai_ocr_proposals')
          .where({ id: decision.proposalId })
          .update({
            status,
            decided_by: principal.userId,
            decided_at: now,
            ...(decision.action === 'edit' ? { value: decision.value === null ? null : String(decision.value) } : {}),
          });
      }
      await ctx.oplog.append(trx, req, {
        action: 'ai_ocr.decided',
        organizationId: document.organizationId,
        actorUserId: principal.userId,
        targetType: 'document',
        targetId: params.documentId,
        details: {
          readingId: reading!.id,
          decisions: decisions.map((d) => ({
            proposalId: d.proposalId,
            propertyId: byId.get(d.proposalId)!.property_id,
            action: d.action,
            ...(d.action === 'edit' ? { value: d.value } : {}),
          })),
          ...(document.isOwnerOrganization ? {} : { partnerOrganizationId: principal.organizationId }),
        },
      });
    });
    return { body: await readingBody(ctx, params.documentId, !document.isOwnerOrganization) };
  });

  router.operation('getOcrSettings', {}, async ({ principal }) => ({
    body: await settingsBody(ctx, principal.organizationId),
  }));

  router.operation('updateOcrSettings', { permission: 'organization:manage' }, async ({ principal, body, req }) => {
    const confidence = body.data.attributes.autoAcceptConfidence;
    await ctx.db.transaction(async (trx) => {
      const before = await trx('ai_ocr_settings').where({ organization_id: principal.organizationId }).first();
      await trx('ai_ocr_settings')
        .insert({
          organization_id: principal.organizationId,
          auto_accept_confidence: confidence,
          updated_by: principal.userId,
          updated_at: ctx.clock.now(),
        })
        .onConflict('organization_id')
        .merge();
      await ctx.oplog.append(trx, req, {
        action: 'ai_ocr.settings_updated',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: principal.organizationId,
        details: { before: before?.auto_accept_confidence ?? null, after: confidence },
      });
    });
    return { body: await settingsBody(ctx, principal.organizationId) };
  });
}
