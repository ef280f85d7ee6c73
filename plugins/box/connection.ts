/*
 * The connection operations (administrators): start (Box's authorization URL with a one-time state), complete (the
 * code exchanged through the SDK, tokens sealed, account read), read, disconnect (revoked at Box, best effort) and
 * the root folder; plus the folder picker's listing.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AccessToken } from 'box-node-sdk/schemas';
import type { TokenStorage } from 'box-node-sdk/box';
import { AppError, perUser, type PluginRouter } from '../../core/plugins/index.ts';
import {
  boxStatus,
  clientFor,
  type ConnectionRow,
  type Ctx,
  describeBoxError,
  isAuthFailure,
  loadBoxSdk,
  networkSession,
  oauthForExchange,
  sealTokens,
} from './client.ts';
import { markAuthFailed } from './auth-failure.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const ADMIN = { permission: 'organization:manage' } as const;
/** How many items of a folder the picker looks through for subfolders (Box lists files and folders together). */
const FOLDER_SCAN_LIMIT = 5000;

export const connectionOf = (ctx: Ctx, organizationId: string) =>
  ctx.db('box_connections').where({ organization_id: organizationId }).first<ConnectionRow | undefined>();

/** The BoxConnection resource of an organization. */
export async function connectionBody(ctx: Ctx, organizationId: string) {
  const row = await connectionOf(ctx, organizationId);
  const [counted] = await ctx
    .db('box_uploads')
    .where({ organization_id: organizationId, status: 'failed' })
    .count<{ failed: number | string }[]>({ failed: '*' });
  return {
    data: {
      type: 'BoxConnection' as const,
      attributes: {
        configured: Boolean(ctx.config.clientId && ctx.config.clientSecret),
        connected: Boolean(row),
        status: row?.status ?? ('not_connected' as const),
        accountLogin: row?.account_login ?? null,
        accountName: row?.account_name ?? null,
        rootFolder: row ? { id: row.root_folder_id, name: row.root_folder_name } : null,
        lastError:
          row?.last_error_code && row.last_error_at
            ? { code: row.last_error_code as never, at: row.last_error_at.toISOString() }
            : null,
        lastUploadAt: row?.last_upload_at?.toISOString() ?? null,
        failedUploads: Number(counted?.failed ?? 0),
        connectedAt: row?.connected_at.toISOString() ?? null,
      },
    },
  };
}

/** Turns a failed Box call of a route into its AppError (marking the connection when Box refused it). */
export async function boxRefusal(ctx: Ctx, connection: ConnectionRow, error: unknown): Promise<AppError> {
  if (error instanceof AppError) return error;
  ctx.log.warn({ box: describeBoxError(error) }, 'box call failed');
  if (isAuthFailure(error)) {
    await markAuthFailed(ctx, connection);
    return new AppError('BOX_AUTH_FAILED');
  }
  if (boxStatus(error) === 404) return new AppError('BOX_FOLDER_NOT_FOUND');
  return new AppError('BOX_UNAVAILABLE');
}

/** The connection a folder operation works with: 409 BOX_NOT_CONNECTED, 502 BOX_AUTH_FAILED while refused. */
async function usableConnection(ctx: Ctx, organizationId: string): Promise<ConnectionRow> {
  const connection = await connectionOf(ctx, organizationId);
  if (!connection?.tokens_sealed) throw new AppError('BOX_NOT_CONNECTED');
  if (connection.status === 'auth_failed') throw new AppError('BOX_AUTH_FAILED');
  return connection;
}

/** Holds the tokens of a code exchange in memory until they are sealed into the new row. */
class ExchangeStorage implements TokenStorage {
  token: AccessToken | undefined;
  async store(token: AccessToken): Promise<undefined> {
    this.token = token;
    return undefined;
  }
  async get(): Promise<AccessToken | undefined> {
    return this.token;
  }
  async clear(): Promise<undefined> {
    this.token = undefined;
    return undefined;
  }
}

function assertConfigured(ctx: Ctx) {
  if (!ctx.config.clientId || !ctx.config.clientSecret) throw new AppError('BOX_NOT_CONFIGURED');
}

export function connectionRoutes(router: PluginRouter, ctx: Ctx): void {
  router.operation('getBoxConnection', ADMIN, async ({ principal }) => ({
    body: await connectionBody(ctx, principal.organizationId),
  }));

  router.operation(
    'startBoxConnection',
    { ...ADMIN, rateLimit: [perUser('boxConnectPerUser')] },
    async ({ principal, body, header }) => {
      assertConfigured(ctx);
      const { redirectUri } = body.data.attributes;
      const allowed = new Set([new URL(ctx.publicUrl).origin, header('origin')].filter(Boolean));
      if (!allowed.has(new URL(redirectUri).origin)) {
        throw new AppError('BOX_REDIRECT_URI_INVALID', { pointer: '/data/attributes/redirectUri' });
      }
      const now = ctx.clock.now();
      await ctx.db('box_connect_attempts').where('expires_at', '<', now).delete();
      const state = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + ctx.config.stateTtlSeconds * 1000);
      await ctx.db('box_connect_attempts').insert({
        id: randomUUID(),
        organization_id: principal.organizationId,
        user_id: principal.userId,
        state_hash: sha256(state),
        redirect_uri: redirectUri,
        expires_at: expiresAt,
        created_at: now,
      });
      // The SDK's getAuthorizeUrl always names account.box.com; the same query on the configured OAuth base.
      const url = new URL(`${ctx.config.oauth2Url.replace(/\/$/, '')}/authorize`);
      url.search = new URLSearchParams({
        client_id: ctx.config.clientId!,
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
      }).toString();
      return {
        status: 201,
        body: {
          data: {
            type: 'BoxAuthorization',
            attributes: { authorizationUrl: url.href, expiresAt: expiresAt.toISOString() },
          },
        },
      };
    },
  );

  router.operation('completeBoxConnection', ADMIN, async ({ principal, body, req }) => {
    assertConfigured(ctx);
    const { code, state } = body.data.attributes;
    const now = ctx.clock.now();
    // One use, by the administrator who started it, within its time: whoever marks it used first goes on.
    const used = await ctx
      .db('box_connect_attempts')
      .where({ state_hash: sha256(state), organization_id: principal.organizationId, user_id: principal.userId })
      .whereNull('used_at')
      .where('expires_at', '>', now)
      .update({ used_at: now });
    if (used !== 1) throw new AppError('BOX_STATE_INVALID');

    const storage = new ExchangeStorage();
    const session = await networkSession(ctx);
    const { box } = await loadBoxSdk();
    let account: { id: string; login: string | null; name: string | null };
    try {
      await (await oauthForExchange(ctx, storage)).getTokensAuthorizationCodeGrant(code, session);
      const me = await new box.BoxClient({
        auth: await oauthForExchange(ctx, storage),
        networkSession: session,
      }).users.getUserMe();
      account = { id: me.id, login: me.login ?? null, name: me.name ?? null };
    } catch (error) {
      ctx.log.warn({ box: describeBoxError(error) }, 'box code exchange failed');
      throw new AppError(isAuthFailure(error) || boxStatus(error) === 400 ? 'BOX_AUTH_FAILED' : 'BOX_UNAVAILABLE');
    }
    const token = storage.token!;
    const previous = await connectionOf(ctx, principal.organizationId);
    const id = randomUUID();
    await ctx.db.transaction(async (trx) => {
      if (previous) await trx('box_connections').where({ id: previous.id }).delete(); // its folder cache goes too
      await trx('box_connections').insert({
        id,
        organization_id: principal.organizationId,
        tokens_sealed: sealTokens(ctx, id, {
          accessToken: token.accessToken ?? '',
          refreshToken: token.refreshToken,
          expiresIn: token.expiresIn,
          tokenType: token.tokenType,
        }),
        access_expires_at: new Date(now.getTime() + (token.expiresIn ?? 3600) * 1000),
        account_id: account.id,
        account_login: account.login,
        account_name: account.name,
        status: 'connected',
        connected_by: principal.userId,
        connected_at: now,
        updated_at: now,
      });
      await ctx.oplog.append(trx, req, {
        action: 'box.connected',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: principal.organizationId,
        details: { accountId: account.id, accountLogin: account.login, replaced: Boolean(previous) },
      });
    });
    return { body: await connectionBody(ctx, principal.organizationId) };
  });

  router.operation('disconnectBox', ADMIN, async ({ principal, req }) => {
    const connection = await connectionOf(ctx, principal.organizationId);
    if (!connection) return { status: 204 };
    if (connection.tokens_sealed && ctx.config.clientId) {
      try {
        await (await clientFor(ctx, connection.id)).auth.revokeToken(await networkSession(ctx));
      } catch (error) {
        ctx.log.warn({ box: describeBoxError(error) }, 'box token revocation failed; disconnecting anyway');
      }
    }
    await ctx.db.transaction(async (trx) => {
      await trx('box_connections').where({ id: connection.id }).delete();
      const now = ctx.clock.now();
      await trx('box_uploads')
        .where({ organization_id: principal.organizationId })
        .whereIn('status', ['queued', 'uploading'])
        .update({ status: 'failed', error_code: 'BOX_NOT_CONNECTED', updated_at: now });
      await ctx.oplog.append(trx, req, {
        action: 'box.disconnected',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: principal.organizationId,
        details: { accountLogin: connection.account_login },
      });
    });
    return { status: 204 };
  });

  router.operation('setBoxRootFolder', ADMIN, async ({ principal, body, req }) => {
    const connection = await usableConnection(ctx, principal.organizationId);
    const { folderId } = body.data.attributes;
    let name: string;
    try {
      const { client } = await clientFor(ctx, connection.id);
      const folder = await client.folders.getFolderById(folderId, {
        queryParams: { fields: ['name'] },
      });
      name = folder.name ?? (folderId === '0' ? 'All Files' : folderId);
    } catch (error) {
      throw await boxRefusal(ctx, connection, error);
    }
    await ctx.db.transaction(async (trx) => {
      const now = ctx.clock.now();
      await trx('box_connections')
        .where({ id: connection.id })
        .update({ root_folder_id: folderId, root_folder_name: name, updated_at: now });
      if (folderId !== connection.root_folder_id) {
        await trx('box_folders').where({ connection_id: connection.id }).delete();
      }
      await ctx.oplog.append(trx, req, {
        action: 'box.root_folder_set',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: principal.organizationId,
        details: { folderId, name, previousFolderId: connection.root_folder_id },
      });
    });
    return { body: await connectionBody(ctx, principal.organizationId) };
  });

  router.operation('listBoxFolders', ADMIN, async ({ principal, query }) => {
    const connection = await usableConnection(ctx, principal.organizationId);
    const parentId = query.parentId ?? '0';
    const offset = query['page[offset]'] ?? 0;
    const limit = query['page[limit]'] ?? 100;
    const { client } = await clientFor(ctx, connection.id);
    try {
      const parent = await client.folders.getFolderById(parentId, {
        queryParams: { fields: ['name', 'path_collection'] },
      });
      const folders: { id: string; name: string }[] = [];
      for (let at = 0; at < FOLDER_SCAN_LIMIT; at += 1000) {
        const items = await client.folders.getFolderItems(parentId, {
          queryParams: { fields: ['name'], offset: at, limit: 1000 },
        });
        const entries = items.entries ?? [];
        for (const entry of entries) {
          if (entry.type === 'folder') folders.push({ id: entry.id, name: (entry as { name?: string }).name ?? '' });
        }
        if (entries.length < 1000 || at + entries.length >= (items.totalCount ?? 0)) break;
      }
      const path = (parent.pathCollection?.entries ?? []).map((f) => ({ id: f.id, name: f.name ?? '' }));
      return {
        body: {
          data: folders
            .slice(offset, offset + limit)
            .map((f) => ({ type: 'BoxFolder' as const, id: f.id, attributes: { name: f.name } })),
          meta: {
            total: folders.length,
            offset,
            limit,
            parent: { id: parent.id, name: parent.name ?? (parent.id === '0' ? 'All Files' : '') },
            path,
          },
        },
      };
    } catch (error) {
      throw await boxRefusal(ctx, connection, error);
    }
  });
}
