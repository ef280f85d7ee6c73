import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { definePlugin, latestVersion, PluginError } from '../../core/plugins/index.ts';
import { type AiOcrConfig, type Position, queueReading, READ_JOB, type ReadJob, readingMaxMs } from './readings.ts';
import { ocrRoutes } from './routes.ts';
import { abandonReading, runReading } from './run.ts';

const READ_RETRIES = 3;

export type { AiOcrConfig } from './readings.ts';

const run = promisify(execFile);

/**
 * AI-OCR (the paid option `aiOcr`): when a document made from a template with reading positions is found clean by
 * the malware scan, a job reads each position (the PDF's own text first, Tesseract where a box has none),
 * normalises what it read to the property's type and proposes it; a person accepts, edits or rejects each value
 * (or the organization's auto-accept confidence does). A monthly page allowance per plan bounds the reading.
 */
export const aiOcrPlugin = definePlugin<AiOcrConfig>({
  name: 'ai-ocr',
  feature: 'aiOcr',
  migrations: new URL('./migrations/', import.meta.url),
  config: {
    schema: {
      type: 'object',
      properties: {
        tesseract: { type: 'string', minLength: 1, default: 'tesseract' },
        pageTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 600, default: 60 },
      },
    },
    read: (_config, slice) => {
      // The monthly allowance moved to the plan data; a setting that no longer does anything must not pass unseen.
      const moved = Object.keys(slice).filter((key) => key.startsWith('MONTHLY_PAGES_'));
      if (moved.length > 0) {
        throw new PluginError(
          `plugin ai-ocr: ${moved.map((key) => `KEIYAKU_PLUGIN_AIOCR_${key}`).join(', ')} no longer apply: ` +
            'the monthly page allowance is `options.aiOcr.monthlyAllowance` in the plans file (config/plans.json or ' +
            'KEIYAKU_PLANS_FILE)',
        );
      }
      return { tesseract: slice.TESSERACT || undefined, pageTimeoutSeconds: slice.PAGE_TIMEOUT_SECONDS };
    },
  },

  async start(ctx) {
    // Readings of scans need Tesseract; without it they fail (OCR_ENGINE_FAILED) and say so here first.
    try {
      await run(ctx.config.tesseract, ['--version'], { timeout: 10_000 });
    } catch {
      ctx.log.warn(
        `ai-ocr: ${ctx.config.tesseract} does not run: scanned pages cannot be read (install tesseract-ocr)`,
      );
    }
  },

  routes(router, ctx) {
    ocrRoutes(router, ctx);
  },

  jobs: {
    [READ_JOB]: {
      handler: async (job, ctx) => {
        const { readingId } = job.data as ReadJob;
        try {
          await runReading(ctx, readingId);
        } catch (error) {
          // Engine failures end the reading inside; anything else retries, and the last attempt ends it failed.
          if (job.retryCount >= READ_RETRIES) await abandonReading(ctx, readingId, error);
          throw error;
        }
      },
      policy: (config) => ({
        retryLimit: READ_RETRIES,
        retryDelaySeconds: 30,
        retryBackoff: true,
        maxRunSeconds: readingMaxMs(config) / 1000,
      }),
    },
  },

  hooks: {
    async 'document.scanned'(event, ctx) {
      if (!event.documentTemplateId) return;
      const template = await ctx
        .db('document_templates')
        .where({ id: event.documentTemplateId, organization_id: event.organizationId })
        .first('id', 'reading_positions');
      const positions = (template?.reading_positions ?? []) as Position[];
      if (positions.length === 0) return;
      // A version already replaced by a newer upload, or a cancelled flow, is not read.
      const newest = await latestVersion(ctx.db, event.documentId);
      if (newest.id !== event.documentVersionId) return;
      const flow = await ctx
        .db('documents as d')
        .join('business_flows as f', 'f.id', 'd.business_flow_id')
        .where('d.id', event.documentId)
        .first('f.status');
      if (flow?.status === 'cancelled') return;
      const version = newest;
      await ctx.db.transaction((trx) =>
        queueReading(ctx, trx, {
          organizationId: event.organizationId,
          documentId: event.documentId,
          version: { id: event.documentVersionId, version: event.version, pageCount: version?.page_count ?? null },
          templateId: template.id,
          positions,
          trigger: 'upload',
          requestedBy: null,
        }),
      );
    },
  },
});
