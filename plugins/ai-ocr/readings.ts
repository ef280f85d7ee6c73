/*
 * Readings and proposals as stored and as the API shows them, the monthly page allowance, and queuing a reading.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, type Plan, type PluginContext } from '../../core/plugins/index.ts';

export interface AiOcrConfig {
  /** The Tesseract binary. */
  tesseract: string;
  pageTimeoutSeconds: number;
}

export type Ctx = PluginContext<AiOcrConfig>;

export const READ_JOB = 'ai-ocr.read';

/** The most pages one reading reads (reading positions are at most 100, so this never cuts one short). */
export const MAX_PAGES = 100;
/** A reading's time budget: every page at its timeout, and a margin; a reading older than this is dead. */
export const readingMaxMs = (config: AiOcrConfig) => (MAX_PAGES * config.pageTimeoutSeconds + 120) * 1000;

export interface ReadJob {
  readingId: string;
}

/** A reading position as document templates store it (core/modules/templates/document-templates.ts). */
export interface Position {
  propertyId: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  hint?: string | null;
}

export interface ReadingRow {
  id: string;
  organization_id: string;
  document_id: string;
  document_version_id: string;
  version: number;
  document_template_id: string | null;
  positions: Position[];
  trigger: 'upload' | 'manual';
  status: 'queued' | 'reading' | 'done' | 'failed' | 'skipped';
  pages_total: number;
  pages_done: number;
  pages: number;
  error_code: string | null;
  requested_by: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface ProposalRow {
  id: string;
  property_id: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  raw: string;
  value: string | null;
  note: string | null;
  source: 'text' | 'ocr';
  confidence: number;
  status: 'proposed' | 'accepted' | 'edited' | 'rejected' | 'auto_accepted';
  decided_at: Date | null;
  property_name: string | null;
  input_type: number | null;
  public_to_client: boolean | null;
  option_label: string | null;
}

/** The pages a set of positions reads (each page once), within the document's page count when known. */
export function pagesOf(positions: Position[], pageCount: number | null): number[] {
  const pages = new Set(positions.map((p) => p.page).filter((p) => pageCount === null || p <= pageCount));
  return [...pages].sort((a, b) => a - b);
}

/** The organization's monthly allowance, what it used this month, and what readings under way will use. */
export async function allowanceOf(ctx: Ctx, db: Knex, organizationId: string) {
  const organization = await db('organizations').where({ id: organizationId }).first('plan');
  // Pages a month each plan with the option may read: the plan data (config/plans.json), usage metric ocrPages.
  const allowance = ctx.plans.options.aiOcr?.monthlyAllowance[organization.plan as Plan] ?? 0;
  const { month, count } = await ctx.usage.current(organizationId, 'ocrPages', db);
  // Pages of readings under way (a reading left past its time budget by a dead worker no longer holds them).
  const [{ reserved }] = (await db('ai_ocr_readings')
    .where({ organization_id: organizationId, status: 'reading' })
    .where('started_at', '>', new Date(ctx.clock.now().getTime() - readingMaxMs(ctx.config)))
    .select(db.raw('coalesce(sum(pages_total), 0)::int AS reserved'))) as [{ reserved: number }];
  return { allowance, used: count, reserved: Number(reserved), month };
}

/** Refuses (403 OCR_ALLOWANCE_EXCEEDED) a reading of `pages` more pages than this month leaves. */
export async function assertAllowance(ctx: Ctx, db: Knex, organizationId: string, pages: number) {
  const { allowance, used, reserved } = await allowanceOf(ctx, db, organizationId);
  if (used + reserved + pages > allowance) {
    throw new AppError('OCR_ALLOWANCE_EXCEEDED', { params: { allowance, used, pages } });
  }
}

/**
 * Inserts a queued reading and its job in the caller's transaction; null when the upload's reading exists or the
 * document has a reading queued or running.
 */
export async function queueReading(
  ctx: Ctx,
  trx: Knex.Transaction,
  input: {
    organizationId: string;
    documentId: string;
    version: { id: string; version: number; pageCount: number | null };
    templateId: string | null;
    positions: Position[];
    trigger: 'upload' | 'manual';
    requestedBy: string | null;
  },
): Promise<string | null> {
  const id = randomUUID();
  const inserted = (await trx('ai_ocr_readings')
    .insert({
      id,
      organization_id: input.organizationId,
      document_id: input.documentId,
      document_version_id: input.version.id,
      version: input.version.version,
      document_template_id: input.templateId,
      positions: JSON.stringify(input.positions),
      trigger: input.trigger,
      status: 'queued',
      pages_total: pagesOf(input.positions, input.version.pageCount).length,
      requested_by: input.requestedBy,
      created_at: ctx.clock.now(),
    })
    // One reading per uploaded version, and one queued or running reading per document (unique indexes).
    .onConflict()
    .ignore()
    .returning('id')) as { id: string }[];
  if (inserted.length === 0) return null;
  await ctx.jobs.send<ReadJob>(READ_JOB, { readingId: id }, { trx });
  return id;
}

/** The document's latest reading (or null). */
export async function latestReading(db: Knex, documentId: string): Promise<ReadingRow | null> {
  const latest = await db('ai_ocr_readings')
    .where({ document_id: documentId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
  return (latest ?? null) as ReadingRow | null;
}

/** The proposals of a reading with their properties' names and types; partners see public properties only. */
export async function proposalsOf(db: Knex, readingId: string, onlyPublic: boolean): Promise<ProposalRow[]> {
  const query = db('ai_ocr_proposals as p')
    .leftJoin('custom_properties as c', 'c.id', 'p.property_id')
    .leftJoin('property_options as o', (j) =>
      j.on(db.raw('o.id::text = p.value')).andOn('o.property_id', 'p.property_id'),
    )
    .where('p.reading_id', readingId)
    .orderBy([{ column: 'p.page' }, { column: 'p.y' }, { column: 'p.x' }])
    .select('p.*', 'c.name as property_name', 'c.input_type', 'c.public_to_client', 'o.label as option_label');
  if (onlyPublic) query.where('c.public_to_client', true);
  return (await query) as ProposalRow[];
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

/** The reading as the API shows it; a partner does not see the owner's template, pages or allowance state. */
export function readingResource(reading: ReadingRow | null, proposals: ProposalRow[], forPartner = false) {
  return {
    data: {
      type: 'OcrReading' as const,
      id: reading?.id ?? null,
      attributes: {
        status: reading?.status ?? ('none' as const),
        version: reading?.version ?? null,
        documentTemplateId: forPartner ? null : (reading?.document_template_id ?? null),
        progress: { pagesDone: reading?.pages_done ?? 0, pagesTotal: reading?.pages_total ?? 0 },
        pages: forPartner ? 0 : (reading?.pages ?? 0),
        error: reading?.error_code && !forPartner ? { code: reading.error_code } : null,
        proposals: proposals.map((p) => ({
          id: p.id,
          propertyId: p.property_id,
          propertyName: p.property_name,
          inputType: p.input_type === null ? null : Number(p.input_type),
          rect: { page: p.page, x: p.x, y: p.y, width: p.width, height: p.height },
          raw: p.raw,
          value: p.value,
          label: p.option_label,
          source: p.source,
          confidence: p.confidence,
          note: p.note as 'taxIncluded' | 'taxExcluded' | null,
          status: p.status,
          decidedAt: iso(p.decided_at),
        })),
        createdAt: iso(reading?.created_at ?? null),
        finishedAt: iso(reading?.finished_at ?? null),
      },
    },
  };
}
