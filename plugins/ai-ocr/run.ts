/*
 * The reading job ('ai-ocr.read'): one document version, off the request path.
 *
 * 1. The version must be clean (a file being scanned or refused by the scan is never read: the reading fails with
 *    the scan's code).
 * 2. The monthly allowance is checked and the pages reserved under a per-organization lock (the reading moves to
 *    `reading`; readings under way count against the allowance), else `skipped` OCR_ALLOWANCE_EXCEEDED.
 * 3. The PDF is read at the positions (reader.ts: text layer first, Tesseract where a box has no text), progress
 *    stored per page.
 * 4. Proposals are stored, the pages counted in usage (ocrPages) and, when the organization set an auto-accept
 *    confidence, proposals at or above it are written into the document (via ai-ocr) in the same transaction.
 *
 * An engine failure (crash, page timeout, unreadable PDF) ends the reading `failed` with its code and is not
 * retried; the document stays as it was. Other errors (the database) retry the job.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertScanAllowsUse, INPUT_TYPES, latestVersion, NUMBER_UNITS } from '../../core/plugins/index.ts';
import { propose, type PropertyShape } from './propose.ts';
import { OcrEngineError, readBoxes, type BoxReading } from './reader.ts';
import { assertAllowance, type Ctx, pagesOf, type ReadingRow } from './readings.ts';

async function finish(ctx: Ctx, id: string, status: 'failed' | 'skipped', code: string) {
  await ctx
    .db('ai_ocr_readings')
    .where({ id })
    .whereIn('status', ['queued', 'reading'])
    .update({ status, error_code: code, finished_at: ctx.clock.now() });
}

/**
 * Why a queued reading should not run any more: the owner organization dropped the option, or the flow was
 * cancelled; null when it should.
 */
async function stillWanted(trx: Knex.Transaction, reading: ReadingRow): Promise<string | null> {
  const row = await trx('documents as d')
    .join('business_flows as f', 'f.id', 'd.business_flow_id')
    .join('organizations as o', 'o.id', 'd.organization_id')
    .where('d.id', reading.document_id)
    .first('f.status', 'o.options');
  if (!row || !((row.options ?? []) as string[]).includes('aiOcr')) return 'PLAN_FEATURE_UNAVAILABLE';
  if (row.status === 'cancelled') return 'BUSINESS_FLOW_CANCELLED';
  return null;
}

/** Moves the reading to `reading` if the allowance has room; false when it was skipped or is no longer queued. */
async function start(ctx: Ctx, reading: ReadingRow): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    // One organization's readings start one at a time, so two cannot both take the last pages.
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`ai-ocr:${reading.organization_id}`]);
    const row = (await trx('ai_ocr_readings').where({ id: reading.id }).forUpdate().first()) as ReadingRow;
    // A retried job takes over: the queue retries only after the earlier run failed or passed its time budget.
    if (row.status === 'reading') return true;
    if (row.status !== 'queued') return false;
    const refusal = await stillWanted(trx, reading);
    if (refusal) {
      await trx('ai_ocr_readings')
        .where({ id: reading.id })
        .update({ status: 'skipped', error_code: refusal, finished_at: ctx.clock.now() });
      return false;
    }
    try {
      await assertAllowance(ctx, trx, reading.organization_id, row.pages_total);
    } catch (error) {
      if ((error as { code?: string }).code !== 'OCR_ALLOWANCE_EXCEEDED') throw error;
      await trx('ai_ocr_readings')
        .where({ id: reading.id })
        .update({ status: 'skipped', error_code: 'OCR_ALLOWANCE_EXCEEDED', finished_at: ctx.clock.now() });
      ctx.log.info({ readingId: reading.id }, 'ai-ocr: monthly page allowance reached, reading skipped');
      return false;
    }
    await trx('ai_ocr_readings').where({ id: reading.id }).update({ status: 'reading', started_at: ctx.clock.now() });
    return true;
  });
}

async function propertiesOf(ctx: Ctx, organizationId: string, ids: string[]): Promise<Map<string, PropertyShape>> {
  const rows = (await ctx
    .db('custom_properties')
    .where({ organization_id: organizationId })
    .whereIn('id', ids)
    .select('id', 'input_type', 'number_unit')) as { id: string; input_type: number; number_unit: number | null }[];
  const options = (await ctx
    .db('property_options')
    .whereIn('property_id', ids)
    .select('id', 'property_id', 'label')) as { id: string; property_id: string; label: string }[];
  return new Map(
    rows.map((r) => [
      r.id,
      {
        inputType: Number(r.input_type),
        numberUnit: r.number_unit === null ? null : Number(r.number_unit),
        options: options.filter((o) => o.property_id === r.id),
      },
    ]),
  );
}

/** What the reader may expect in a box, from the property's type (it picks Tesseract's settings by it). */
function kindOf(shape: PropertyShape | undefined): string | undefined {
  if (!shape) return undefined;
  if (shape.inputType === INPUT_TYPES.number) return shape.numberUnit === NUMBER_UNITS.yen ? 'amount' : 'number';
  return {
    [INPUT_TYPES.string]: 'text',
    [INPUT_TYPES.date]: 'date',
    [INPUT_TYPES.enum]: 'enum',
  }[shape.inputType];
}

async function readPdf(
  ctx: Ctx,
  reading: ReadingRow,
  shapes: Map<string, PropertyShape>,
  file: { sha256: string; pageCount: number | null },
) {
  const { sha256, pageCount } = file;
  const folder = await mkdtemp(path.join(tmpdir(), 'keiyaku-ocr-'));
  try {
    const file = path.join(folder, 'document.pdf');
    await writeFile(file, await ctx.files.read(sha256));
    const boxes = reading.positions
      .filter((p) => pageCount === null || p.page <= pageCount)
      .map((p) => ({
        key: p.propertyId,
        page: p.page,
        x: p.x,
        y: p.y,
        width: p.width,
        height: p.height,
        kind: kindOf(shapes.get(p.propertyId)),
      }));
    return await readBoxes(
      file,
      boxes,
      { tesseract: ctx.config.tesseract, pageTimeoutMs: ctx.config.pageTimeoutSeconds * 1000 },
      (done) => {
        void ctx
          .db('ai_ocr_readings')
          .where({ id: reading.id, status: 'reading' })
          .update({ pages_done: done })
          .catch((err: unknown) => ctx.log.warn({ err }, 'ai-ocr: progress not stored'));
      },
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function store(
  ctx: Ctx,
  reading: ReadingRow,
  shapes: Map<string, PropertyShape>,
  readings: BoxReading[],
  pages: number,
) {
  const settings = await ctx.db('ai_ocr_settings').where({ organization_id: reading.organization_id }).first();
  const threshold: number | null = settings?.auto_accept_confidence ?? null;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (trx) => {
    const current = await trx('ai_ocr_readings').where({ id: reading.id }).forUpdate().first('status');
    if (current?.status !== 'reading') return;
    const rows = reading.positions.flatMap((position) => {
      const shape = shapes.get(position.propertyId);
      const read = readings.find((r) => r.key === position.propertyId);
      if (!shape || !read) return []; // the property was deleted, or the page is past the end
      const proposal = propose(read.raw, read.confidence, shape);
      const automatic = threshold !== null && proposal.value !== null && proposal.confidence >= threshold;
      return [
        {
          id: randomUUID(),
          reading_id: reading.id,
          organization_id: reading.organization_id,
          property_id: position.propertyId,
          page: position.page,
          x: position.x,
          y: position.y,
          width: position.width,
          height: position.height,
          raw: read.raw,
          value: proposal.value,
          note: proposal.note,
          source: read.source,
          confidence: Math.round(proposal.confidence * 1000) / 1000,
          status: automatic ? 'auto_accepted' : 'proposed',
          decided_at: automatic ? now : null,
        },
      ];
    });
    // The rule fills values nobody has entered, from the file that is the document now; the rest wait for a person.
    const newest = await latestVersion(trx, reading.document_id);
    const filled = new Set(
      (
        (await trx('property_values')
          .where({ target_type: 'document', target_id: reading.document_id })
          .select('property_id')) as { property_id: string }[]
      ).map((v) => v.property_id),
    );
    for (const row of rows) {
      if (
        row.status === 'auto_accepted' &&
        (newest?.id !== reading.document_version_id || filled.has(row.property_id))
      ) {
        Object.assign(row, { status: 'proposed', decided_at: null });
      }
    }
    const automatic = rows.filter((r) => r.status === 'auto_accepted');
    if (automatic.length > 0) {
      const { rejected } = await writeAutomatic(ctx, trx, reading, automatic);
      for (const row of rows) if (rejected.has(row.id)) Object.assign(row, { status: 'proposed', decided_at: null });
    }
    if (rows.length > 0) await trx('ai_ocr_proposals').insert(rows);
    await ctx.usage.record(trx, reading.organization_id, 'ocrPages', pages);
    await ctx.oplog.append(trx, null, {
      action: 'ai_ocr.read',
      organizationId: reading.organization_id,
      targetType: 'document',
      targetId: reading.document_id,
      details: {
        readingId: reading.id,
        version: reading.version,
        pages,
        proposals: rows.length,
        autoAccepted: rows.filter((r) => r.status === 'auto_accepted').map((r) => r.property_id),
      },
    });
    await trx('ai_ocr_readings')
      .where({ id: reading.id })
      .update({ status: 'done', pages, pages_done: reading.pages_total, finished_at: now });
  });
}

/**
 * Writes auto-accepted values; a value the property refuses (out of range, not tomorrow or later...) stays a
 * proposal for a person instead. Each is written under a savepoint, so one refusal keeps the others.
 */
async function writeAutomatic(
  ctx: Ctx,
  trx: Parameters<Parameters<Ctx['db']['transaction']>[0]>[0],
  reading: ReadingRow,
  rows: { id: string; property_id: string; value: string | null }[],
) {
  const rejected = new Set<string>();
  for (const row of rows) {
    try {
      await trx.transaction((savepoint) =>
        ctx.documents.writeProperties(savepoint, {
          principal: null,
          req: null,
          documentId: reading.document_id,
          values: [{ propertyId: row.property_id, value: row.value }],
          via: 'ai-ocr',
          pointer: () => '/value',
        }),
      );
    } catch (error) {
      ctx.log.info({ err: error, propertyId: row.property_id }, 'ai-ocr: auto-accept refused, left to a person');
      rejected.add(row.id);
    }
  }
  return { rejected };
}

/** Ends a reading whose job gave up (its last attempt failed): the document can be read again by hand. */
export async function abandonReading(ctx: Ctx, readingId: string, error: unknown): Promise<void> {
  ctx.log.error({ err: error, readingId }, 'ai-ocr: reading abandoned after its last attempt');
  await finish(ctx, readingId, 'failed', 'OCR_ENGINE_FAILED');
}

export async function runReading(ctx: Ctx, readingId: string): Promise<void> {
  const reading = (await ctx.db('ai_ocr_readings').where({ id: readingId }).first()) as ReadingRow | undefined;
  if (!reading || !['queued', 'reading'].includes(reading.status)) return;
  const version = await ctx
    .db('document_versions')
    .where({ id: reading.document_version_id })
    .first('scan_status', 'sha256', 'page_count');
  if (!version) return finish(ctx, reading.id, 'failed', 'NOT_FOUND');
  if (version.scan_status !== 'clean') {
    try {
      assertScanAllowsUse(version);
    } catch (error) {
      return finish(ctx, reading.id, 'failed', (error as { code: string }).code);
    }
  }
  if (pagesOf(reading.positions, version.page_count).length === 0) {
    return finish(ctx, reading.id, 'failed', 'OCR_NO_READING_POSITIONS');
  }
  if (!(await start(ctx, reading))) return;
  const shapes = await propertiesOf(
    ctx,
    reading.organization_id,
    reading.positions.map((p) => p.propertyId),
  );
  let result: Awaited<ReturnType<typeof readPdf>>;
  try {
    result = await readPdf(ctx, reading, shapes, { sha256: version.sha256, pageCount: version.page_count });
  } catch (error) {
    if (!(error instanceof OcrEngineError)) throw error;
    ctx.log.warn({ readingId, code: error.code, err: error }, 'ai-ocr: reading failed');
    return finish(ctx, reading.id, 'failed', error.code);
  }
  await store(ctx, reading, shapes, result.readings, result.pages.length);
}
