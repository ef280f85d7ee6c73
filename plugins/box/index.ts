import { definePlugin } from '../../core/plugins/index.ts';
import type { BoxConfig } from './client.ts';
import { connectionRoutes } from './connection.ts';
import { BOX_UPLOAD_JOB, runUpload, type UploadJob } from './upload.ts';
import { queueUpload, uploadRoutes } from './uploads.ts';

export type { BoxConfig } from './client.ts';

/**
 * Box: an organization administrator connects a Box account (OAuth 2.0 authorization code through box-node-sdk,
 * tokens sealed under the master key and refreshed by the SDK), picks a root folder, and every completed document's
 * signed PDF and completion certificate go to <root>/<workspace>/<business flow>/ by a retried job; administrators
 * may send an older completed document by hand.
 */
export const boxPlugin = definePlugin<BoxConfig>({
  name: 'box',
  feature: 'box',
  migrations: new URL('./migrations/', import.meta.url),
  config: {
    schema: {
      type: 'object',
      properties: {
        clientId: { type: ['string', 'null'], default: null },
        clientSecret: { type: ['string', 'null'], default: null },
        apiUrl: { type: 'string', pattern: '^https?://', default: 'https://api.box.com' },
        uploadUrl: { type: 'string', pattern: '^https?://', default: 'https://upload.box.com/api' },
        oauth2Url: { type: 'string', pattern: '^https?://', default: 'https://account.box.com/api/oauth2' },
        retryLimit: { type: 'integer', minimum: 0, maximum: 20, default: 6 },
        retryDelaySeconds: { type: 'integer', minimum: 1, maximum: 3600, default: 30 },
        requestTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 600, default: 60 },
        stateTtlSeconds: { type: 'integer', minimum: 60, maximum: 3600, default: 600 },
      },
    },
    read: (_config, slice) => ({
      clientId: slice.CLIENT_ID || undefined,
      clientSecret: slice.CLIENT_SECRET || undefined,
      apiUrl: slice.API_URL?.replace(/\/$/, ''),
      uploadUrl: slice.UPLOAD_URL?.replace(/\/$/, ''),
      oauth2Url: slice.OAUTH2_URL?.replace(/\/$/, ''),
      retryLimit: slice.RETRY_LIMIT,
      retryDelaySeconds: slice.RETRY_DELAY_SECONDS,
      requestTimeoutSeconds: slice.REQUEST_TIMEOUT_SECONDS,
      stateTtlSeconds: slice.STATE_TTL_SECONDS,
    }),
  },

  async start(ctx) {
    if (!ctx.config.clientId || !ctx.config.clientSecret) {
      ctx.log.info('box: no KEIYAKU_PLUGIN_BOX_CLIENT_ID / _CLIENT_SECRET, so no organization can connect Box');
    }
  },

  routes(router, ctx) {
    connectionRoutes(router, ctx);
    uploadRoutes(router, ctx);
  },

  jobs: {
    [BOX_UPLOAD_JOB]: {
      handler: (job, ctx) => runUpload(ctx, job as { data: UploadJob; retryCount: number }),
      policy: (config) => ({
        retryLimit: config.retryLimit,
        retryDelaySeconds: config.retryDelaySeconds,
        retryBackoff: true,
      }),
    },
  },

  hooks: {
    async 'document.completed'(event, ctx) {
      const connection = await ctx
        .db('box_connections')
        .where({ organization_id: event.organizationId })
        .first('id', 'status');
      if (!connection) return; // nothing connected: a later manual send can still take it
      const document = await ctx.db('documents').where({ id: event.documentId }).first('name');
      if (!document) return;
      await ctx.db.transaction((trx) =>
        queueUpload(ctx, trx, {
          organizationId: event.organizationId,
          documentId: event.documentId,
          businessFlowId: event.businessFlowId,
          documentName: document.name,
          trigger: 'completion',
        }),
      );
    },
  },
});
