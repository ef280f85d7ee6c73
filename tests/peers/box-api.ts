/*
 * A local double of the part of Box's HTTP API that box-node-sdk calls for the box plugin: OAuth 2.0 (authorize
 * page that approves at once, token endpoint with authorization_code and refresh_token grants that rotate the
 * refresh token, revoke), users/me, folders (read, items, create with 409 item_name_in_use naming the conflict) and
 * uploads (new file, with 409 item_name_in_use; new version). Switches make it revoke every token, expire access
 * tokens, or fail the next requests with a status.
 *
 * Base URLs for the SDK: API `url`, upload `${url}/api`, OAuth `${url}/api/oauth2` (authorize page there).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BoxFolderRecord {
  id: string;
  name: string;
  parentId: string | null;
}

export interface BoxFileRecord {
  id: string;
  name: string;
  parentId: string;
  versions: Buffer[];
}

interface TokenPair {
  access: string;
  refresh: string;
  accessValid: boolean;
  refreshValid: boolean;
}

export class BoxApiDouble {
  readonly clientId = 'box-client-id';
  readonly clientSecret = 'box-client-secret';
  readonly user = { id: '11446498', name: 'Keiyaku 連携', login: 'keiyaku-box@example.com' };
  readonly folders = new Map<string, BoxFolderRecord>([['0', { id: '0', name: 'All Files', parentId: null }]]);
  readonly files = new Map<string, BoxFileRecord>();
  /** Every request: method and path (no query), in order. */
  readonly requests: string[] = [];
  /** Token endpoint calls by grant type. */
  readonly grants: string[] = [];
  private readonly codes = new Map<string, string>();
  private readonly tokens: TokenPair[] = [];
  private failures: { count: number; status: number; paths: RegExp } = { count: 0, status: 500, paths: /./ };
  private nextId = 1000;
  private server: Server | null = null;
  url = '';

  static async start(): Promise<BoxApiDouble> {
    const peer = new BoxApiDouble();
    peer.server = createServer((req, res) => {
      peer.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', status: 500, code: 'internal', message: String(error) }));
      });
    });
    await new Promise<void>((resolve) => peer.server!.listen(0, '127.0.0.1', resolve));
    peer.url = `http://127.0.0.1:${(peer.server!.address() as AddressInfo).port}`;
    return peer;
  }

  /** The plugin's configuration pointing at this double. */
  env(): Record<string, string> {
    return {
      KEIYAKU_PLUGIN_BOX_CLIENT_ID: this.clientId,
      KEIYAKU_PLUGIN_BOX_CLIENT_SECRET: this.clientSecret,
      KEIYAKU_PLUGIN_BOX_API_URL: this.url,
      KEIYAKU_PLUGIN_BOX_UPLOAD_URL: `${this.url}/api`,
      KEIYAKU_PLUGIN_BOX_OAUTH2_URL: `${this.url}/api/oauth2`,
    };
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Follows an authorization URL as a browser would: the user approves at once; answers the redirect target. */
  async approve(authorizationUrl: string): Promise<URL> {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}`);
    return new URL(response.headers.get('location')!);
  }

  /** The user removed the application at Box: every access and refresh token stops working. */
  revokeAll(): void {
    for (const pair of this.tokens) Object.assign(pair, { accessValid: false, refreshValid: false });
  }

  /** Access tokens expire (refresh tokens keep working): the next API call answers 401. */
  expireAccessTokens(): void {
    for (const pair of this.tokens) pair.accessValid = false;
  }

  /** The next `count` requests whose path matches answer `status`. */
  failNext(count: number, status = 500, paths = /./): void {
    this.failures = { count, status, paths };
  }

  /** A folder made directly at Box (as a user would), e.g. to provoke a name conflict. */
  addFolder(name: string, parentId = '0'): string {
    const id = String(this.nextId++);
    this.folders.set(id, { id, name, parentId });
    return id;
  }

  childrenOf(parentId: string): (BoxFolderRecord | BoxFileRecord)[] {
    return [
      ...[...this.folders.values()].filter((f) => f.parentId === parentId),
      ...[...this.files.values()].filter((f) => f.parentId === parentId),
    ];
  }

  /** Every access and refresh token ever issued, to look for them elsewhere (they must never be stored in clear). */
  issuedTokens(): string[] {
    return this.tokens.flatMap((t) => [t.access, t.refresh]);
  }

  private issue(): Record<string, unknown> {
    const pair: TokenPair = {
      access: `at-${randomBytes(16).toString('hex')}`,
      refresh: `rt-${randomBytes(16).toString('hex')}`,
      accessValid: true,
      refreshValid: true,
    };
    this.tokens.push(pair);
    return {
      access_token: pair.access,
      refresh_token: pair.refresh,
      expires_in: 3600,
      token_type: 'bearer',
      restricted_to: [],
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    this.requests.push(`${req.method} ${path}`);
    const body = await readBody(req);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(status === 204 ? undefined : JSON.stringify(value));
    };
    const error = (status: number, code: string, extra: Record<string, unknown> = {}) =>
      json(status, {
        type: 'error',
        status,
        code,
        message: code,
        request_id: randomBytes(6).toString('hex'),
        ...extra,
      });

    if (path === '/api/oauth2/authorize' && req.method === 'GET') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      if (url.searchParams.get('client_id') !== this.clientId) return error(400, 'invalid_client');
      const code = `code-${randomBytes(12).toString('hex')}`;
      this.codes.set(code, redirect.href);
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: redirect.href });
      return void res.end();
    }

    if (this.failures.count > 0 && this.failures.paths.test(path)) {
      this.failures.count--;
      return error(this.failures.status, 'internal_server_error');
    }

    if (path === '/oauth2/token' && req.method === 'POST') {
      const form = new URLSearchParams(body.toString('utf8'));
      this.grants.push(form.get('grant_type') ?? '');
      if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
        return json(400, { error: 'invalid_client', error_description: 'The client credentials are invalid' });
      }
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (!this.codes.delete(code)) {
          return json(400, { error: 'invalid_grant', error_description: 'Auth code doesn\u2019t exist or is invalid' });
        }
        return json(200, this.issue());
      }
      if (form.get('grant_type') === 'refresh_token') {
        const pair = this.tokens.find((t) => t.refresh === form.get('refresh_token'));
        if (!pair?.refreshValid)
          return json(400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
        // Box rotates: the refresh token just spent stops working, as does the old access token.
        Object.assign(pair, { refreshValid: false, accessValid: false });
        return json(200, this.issue());
      }
      return json(400, { error: 'unsupported_grant_type' });
    }

    if (path === '/oauth2/revoke' && req.method === 'POST') {
      const token = new URLSearchParams(body.toString('utf8')).get('token');
      const pair = this.tokens.find((t) => t.access === token || t.refresh === token);
      if (pair) Object.assign(pair, { accessValid: false, refreshValid: false });
      return json(200, {});
    }

    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.tokens.some((t) => t.access === bearer && t.accessValid)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="Service", error="invalid_token"' });
      return void res.end();
    }

    if (path === '/2.0/users/me' && req.method === 'GET') {
      return json(200, { type: 'user', id: this.user.id, name: this.user.name, login: this.user.login });
    }
    const folderMatch = /^\/2\.0\/folders\/(\d+)(\/items)?$/.exec(path);
    if (folderMatch && req.method === 'GET') {
      const folder = this.folders.get(folderMatch[1]!);
      if (!folder) return error(404, 'not_found');
      if (!folderMatch[2]) return json(200, this.folderJson(folder));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const children = this.childrenOf(folder.id);
      return json(200, {
        total_count: children.length,
        offset,
        limit,
        entries: children.slice(offset, offset + limit).map((c) => this.itemJson(c)),
        order: [{ by: 'type', direction: 'ASC' }],
      });
    }
    if (path === '/2.0/folders' && req.method === 'POST') {
      const input = JSON.parse(body.toString('utf8')) as { name: string; parent: { id: string } };
      if (!this.folders.has(input.parent.id)) return error(404, 'not_found');
      const taken = this.childrenOf(input.parent.id).find((c) => c.name === input.name);
      if (taken) return error(409, 'item_name_in_use', { context_info: { conflicts: [this.itemJson(taken)] } });
      const id = this.addFolder(input.name, input.parent.id);
      return json(201, this.folderJson(this.folders.get(id)!));
    }
    const uploadMatch = /^\/api\/2\.0\/files\/(?:(\d+)\/)?content$/.exec(path);
    if (uploadMatch && req.method === 'POST') {
      const form = await new Request(this.url, {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type']! },
        body: new Uint8Array(body),
      }).formData();
      const attributes = JSON.parse(String(form.get('attributes'))) as { name: string; parent?: { id: string } };
      const bytes = Buffer.from(await (form.get('file') as Blob).arrayBuffer());
      if (uploadMatch[1]) {
        const file = this.files.get(uploadMatch[1]);
        if (!file) return error(404, 'not_found');
        file.versions.push(bytes);
        if (attributes.name) file.name = attributes.name;
        return json(201, { total_count: 1, entries: [this.itemJson(file)] });
      }
      const parentId = attributes.parent?.id ?? '';
      if (!this.folders.has(parentId)) return error(404, 'not_found');
      const taken = this.childrenOf(parentId).find((c) => c.name === attributes.name);
      if (taken) return error(409, 'item_name_in_use', { context_info: { conflicts: this.itemJson(taken) } });
      const id = String(this.nextId++);
      const file: BoxFileRecord = { id, name: attributes.name, parentId, versions: [bytes] };
      this.files.set(id, file);
      return json(201, { total_count: 1, entries: [this.itemJson(file)] });
    }
    return error(404, 'not_found');
  }

  private itemJson(item: BoxFolderRecord | BoxFileRecord) {
    if ('versions' in item) {
      return {
        type: 'file',
        id: item.id,
        name: item.name,
        size: item.versions.at(-1)!.length,
        etag: String(item.versions.length - 1),
        file_version: { type: 'file_version', id: `${item.id}-v${item.versions.length}` },
        parent: { type: 'folder', id: item.parentId },
      };
    }
    return { type: 'folder', id: item.id, name: item.name, etag: '0' };
  }

  private folderJson(folder: BoxFolderRecord) {
    const ancestors: BoxFolderRecord[] = [];
    for (let at = folder.parentId; at !== null; at = this.folders.get(at)?.parentId ?? null) {
      ancestors.unshift(this.folders.get(at)!);
    }
    return {
      type: 'folder',
      id: folder.id,
      name: folder.name,
      etag: '0',
      path_collection: {
        total_count: ancestors.length,
        entries: ancestors.map((a) => ({ type: 'folder', id: a.id, name: a.name })),
      },
    };
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
