/*
 * The box plugin driving the real box-node-sdk against a local double of Box's HTTP API (tests/peers/box-api.ts):
 * connect (authorization code, state once and bound), root folder, upload on completion into
 * <root>/<workspace>/<flow>/, folder reuse on 409, token refresh (expired and 401), a revoked token turning into
 * BOX_AUTH_FAILED on the upload and the settings with one mail, retry after a 500, manual send, tenancy, roles, plan
 * gate, the plugin switched off, and tokens sealed at rest.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberToken, signedInOwner } from '../../tests/helpers/accounts.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { recipientOf, waitForMail } from '../../tests/helpers/mail.ts';
import { groupTask, newDocument, plan, seedTaskWorld, step, type TaskWorld } from '../../tests/helpers/tasks.ts';
import { BoxApiDouble } from '../../tests/peers/box-api.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';

// Completing a document signs its completion certificate: slow on two busy cores.
vi.setConfig({ testTimeout: 120_000 });

const PUBLIC_URL = 'https://keiyaku.test';
const CALLBACK = `${PUBLIC_URL}/box/callback`;
const PLUGINS = BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));
const errorCode = (body: any) => body.errors?.[0]?.code;

let app: TestApp;
let box: BoxApiDouble;

beforeAll(async () => {
  box = await BoxApiDouble.start();
  app = await startApp({
    env: {
      ...box.env(),
      KEIYAKU_PUBLIC_URL: PUBLIC_URL,
      KEIYAKU_PLUGIN_BOX_RETRY_LIMIT: '2',
      KEIYAKU_PLUGIN_BOX_RETRY_DELAY_SECONDS: '1',
    },
    plugins: PLUGINS,
  });
});
afterAll(async () => {
  await app?.close();
  await box?.close();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts a connection as `token`, approves it at the double, and completes it; answers the completion. */
async function connect(token: string) {
  const started = await app.api.call('startBoxConnection', {
    token,
    body: { data: { type: 'BoxAuthorization', attributes: { redirectUri: CALLBACK } } },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const back = await box.approve(started.body.data.attributes.authorizationUrl);
  expect(back.origin + back.pathname).toBe(CALLBACK);
  const attributes = { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  const completed = await app.api.call('completeBoxConnection', {
    token,
    body: { data: { type: 'BoxConnection', attributes } },
  });
  return { completed, attributes };
}

/** A document of the world's flow that A's owner completes by approving its one task. */
async function completedDocument(w: TaskWorld, name = '業務委託契約書', on = app) {
  const documentId = await newDocument(on, w.ownerA.token, w.flowId, 'clean', name);
  const [task] = await plan(on, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1)]);
  const approved = await step(on, w.ownerA.token, 'approveTask', task!.id);
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return documentId;
}

const uploadOf = (token: string, documentId: string) =>
  app.api.call('getDocumentBoxUpload', { token, params: { documentId } });

async function settledUpload(token: string, documentId: string) {
  return waitFor(`the upload of ${documentId}`, async () => {
    const response = await uploadOf(token, documentId);
    const status = response.body.data?.attributes.status;
    return (status === 'done' || status === 'failed') && response.body.data;
  });
}

const flowFolderOf = () => {
  const workspace = box.childrenOf('0').find((f) => f.name === 'Deals with B');
  return workspace && box.childrenOf(workspace.id).find((f) => f.name === '売買契約 2026');
};

describe('box plugin', () => {
  let w: TaskWorld;

  beforeAll(async () => {
    w = await seedTaskWorld(app, { plan: 'standard' });
  });

  it('connects an account: the state works once and only for the administrator who started it', async () => {
    const empty = await app.api.call('getBoxConnection', { token: w.ownerA.token });
    expect(empty.body.data.attributes).toMatchObject({ configured: true, connected: false, status: 'not_connected' });

    const foreignRedirect = await app.api.call('startBoxConnection', {
      token: w.ownerA.token,
      body: { data: { type: 'BoxAuthorization', attributes: { redirectUri: 'https://evil.example/box/callback' } } },
    });
    expect([foreignRedirect.status, errorCode(foreignRedirect.body)]).toEqual([422, 'BOX_REDIRECT_URI_INVALID']);

    // A state started by one administrator does not work for another one of the same organization.
    const otherAdmin = await memberToken(app, w.ownerA.organizationId, { is_admin: true });
    const started = await app.api.call('startBoxConnection', {
      token: w.ownerA.token,
      body: { data: { type: 'BoxAuthorization', attributes: { redirectUri: CALLBACK } } },
    });
    const back = await box.approve(started.body.data.attributes.authorizationUrl);
    const stolen = await app.api.call('completeBoxConnection', {
      token: otherAdmin,
      body: {
        data: {
          type: 'BoxConnection',
          attributes: { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! },
        },
      },
    });
    expect([stolen.status, errorCode(stolen.body)]).toEqual([400, 'BOX_STATE_INVALID']);
    // Box refuses a code it did not issue (400 invalid_grant at its token endpoint): the spec's authentication failure.
    const refused = await app.api.call('completeBoxConnection', {
      token: w.ownerA.token,
      body: {
        data: { type: 'BoxConnection', attributes: { code: 'not-a-code', state: back.searchParams.get('state')! } },
      },
    });
    expect([refused.status, errorCode(refused.body)]).toEqual([502, 'BOX_AUTH_FAILED']);
    expect((await app.api.call('getBoxConnection', { token: w.ownerA.token })).body.data.attributes.connected).toBe(
      false,
    );

    const { completed, attributes } = await connect(w.ownerA.token);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.data.attributes).toMatchObject({
      connected: true,
      status: 'connected',
      accountLogin: box.user.login,
      accountName: box.user.name,
      rootFolder: { id: '0', name: 'All Files' },
    });
    const replay = await app.api.call('completeBoxConnection', {
      token: w.ownerA.token,
      body: { data: { type: 'BoxConnection', attributes } },
    });
    expect([replay.status, errorCode(replay.body)]).toEqual([400, 'BOX_STATE_INVALID']);
    expect(box.grants).toContain('authorization_code');

    // Tokens are sealed at rest: no token the double issued appears in the table.
    const rows = await app.service.deps.knex('box_connections').select('*');
    const dump =
      JSON.stringify(rows) + rows.map((r: any) => Buffer.from(r.tokens_sealed ?? '').toString('latin1')).join();
    for (const token of box.issuedTokens()) expect(dump).not.toContain(token);
  });

  it('lists folders and sets the root folder after checking it at Box', async () => {
    const archive = box.addFolder('契約書アーカイブ');
    box.addFolder('Other');
    const listed = await app.api.call('listBoxFolders', { token: w.ownerA.token, query: { parentId: '0' } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((f: any) => f.attributes.name)).toEqual(['契約書アーカイブ', 'Other']);
    expect(listed.body.meta).toMatchObject({ total: 2, parent: { id: '0' }, path: [] });
    const paged = await app.api.call('listBoxFolders', {
      token: w.ownerA.token,
      query: { parentId: '0', 'page[offset]': 1, 'page[limit]': 1 },
    });
    expect(paged.body.data.map((f: any) => f.id)).toEqual([listed.body.data[1].id]);

    const missing = await app.api.call('setBoxRootFolder', {
      token: w.ownerA.token,
      body: { data: { type: 'BoxRootFolder', attributes: { folderId: '999999' } } },
    });
    expect([missing.status, errorCode(missing.body)]).toEqual([404, 'BOX_FOLDER_NOT_FOUND']);
    const set = await app.api.call('setBoxRootFolder', {
      token: w.ownerA.token,
      body: { data: { type: 'BoxRootFolder', attributes: { folderId: archive } } },
    });
    expect(set.body.data.attributes.rootFolder).toEqual({ id: archive, name: '契約書アーカイブ' });
    // Back to All Files for the tests below, which look for folders there.
    await app.api.call('setBoxRootFolder', {
      token: w.ownerA.token,
      body: { data: { type: 'BoxRootFolder', attributes: { folderId: '0' } } },
    });
  });

  it('uploads the signed PDF and the certificate on completion, reusing an existing folder of the same name (409)', async () => {
    const existingWorkspaceFolder = box.addFolder('Deals with B'); // made by someone at Box before
    const documentId = await completedDocument(w, '業務委託契約書');
    const upload = await settledUpload(w.ownerA.token, documentId);
    expect(upload.attributes).toMatchObject({ status: 'done', errorCode: null, trigger: 'completion', attempts: 1 });
    const flowFolder = flowFolderOf()!;
    expect(box.folders.get(flowFolder.id)!.parentId).toBe(existingWorkspaceFolder);
    expect(upload.attributes.boxFolderId).toBe(flowFolder.id);
    const names = box.childrenOf(flowFolder.id).map((f) => f.name);
    expect(names).toEqual(['業務委託契約書.pdf', '業務委託契約書_合意締結証明書.pdf']);
    const signed = box.files.get(upload.attributes.boxFileIds.document)!;
    expect(signed.versions[0]!.subarray(0, 5).toString()).toBe('%PDF-');

    // A member of the workspace sees the status too; the administrators' list has it.
    const member = await uploadOf(w.userA1.token, documentId);
    expect(member.body.data.attributes.status).toBe('done');
    const list = await app.api.call('listBoxUploads', { token: w.ownerA.token, query: { 'filter[status]': 'done' } });
    expect(list.body.data.map((u: any) => u.attributes.documentId)).toContain(documentId);
  });

  it('refreshes an expired access token through the SDK, and uploads into the cached folder', async () => {
    const grantsBefore = box.grants.filter((g) => g === 'refresh_token').length;
    box.expireAccessTokens(); // Box answers 401; the SDK refreshes and tries again
    const documentId = await completedDocument(w, '秘密保持契約書');
    const upload = await settledUpload(w.ownerA.token, documentId);
    expect(upload.attributes.status).toBe('done');
    expect(box.grants.filter((g) => g === 'refresh_token').length).toBe(grantsBefore + 1);
    expect(box.childrenOf(flowFolderOf()!.id).map((f) => f.name)).toContain('秘密保持契約書.pdf');

    // Past the stored expiry the token is refreshed before the call.
    await app.service.deps
      .knex('box_connections')
      .where({ organization_id: w.ownerA.organizationId })
      .update({ access_expires_at: new Date(app.clock.now().getTime() - 1000) });
    const listed = await app.api.call('listBoxFolders', { token: w.ownerA.token });
    expect(listed.status).toBe(200);
    expect(box.grants.filter((g) => g === 'refresh_token').length).toBe(grantsBefore + 2);

    // Two requests hit the expired token at once: one spends the refresh token (Box rotates it), the other waits
    // for it and uses the new access token instead of spending the old refresh token a second time.
    box.expireAccessTokens();
    const both = await Promise.all([
      app.api.call('listBoxFolders', { token: w.ownerA.token }),
      app.api.call('listBoxFolders', { token: w.ownerA.token }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(box.grants.filter((g) => g === 'refresh_token').length).toBe(grantsBefore + 3);
    expect((await app.api.call('getBoxConnection', { token: w.ownerA.token })).body.data.attributes.status).toBe(
      'connected',
    );

    const rows = await app.service.deps.knex('box_connections').select('*');
    const dump = rows.map((r: any) => Buffer.from(r.tokens_sealed).toString('latin1')).join();
    for (const token of box.issuedTokens()) expect(dump).not.toContain(token);
  });

  it('retries an upload after a 500 and sends a document again by hand as a new version', async () => {
    box.failNext(1, 500, /files\/content/);
    const documentId = await completedDocument(w, '売買契約書');
    const upload = await settledUpload(w.ownerA.token, documentId);
    expect(upload.attributes).toMatchObject({ status: 'done', attempts: 2 });

    const member = await app.api.call('sendDocumentToBox', { token: w.userA1.token, params: { documentId } });
    expect([member.status, errorCode(member.body)]).toEqual([403, 'FUNCTION_NOT_PERMITTED']);
    const sent = await app.api.call('sendDocumentToBox', { token: w.ownerA.token, params: { documentId } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body.data.attributes).toMatchObject({ status: 'queued', trigger: 'manual' });
    const again = await settledUpload(w.ownerA.token, documentId);
    expect(again.attributes.status).toBe('done');
    expect(box.files.get(again.attributes.boxFileIds.document)!.versions).toHaveLength(2);

    // Two jobs for one queued upload (a retry left over from before a manual send): one claims it, the other finds
    // nothing to do, and the file gets one version more, not two.
    const { knex, jobs } = app.service.deps;
    await knex('box_uploads').where({ document_id: documentId }).update({ status: 'queued' });
    const jobIds = await Promise.all([
      jobs.send('box.upload', { uploadId: again.id }),
      jobs.send('box.upload', { uploadId: again.id }),
    ]);
    await vi.waitFor(
      async () => {
        const states = await knex('pgboss.job').whereIn('id', jobIds).pluck('state');
        expect(states).toEqual(['completed', 'completed']);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect((await settledUpload(w.ownerA.token, documentId)).attributes.status).toBe('done');
    expect(box.files.get(again.attributes.boxFileIds.document)!.versions).toHaveLength(3);
  });

  it('sends an older document completed before Box was connected, and refuses one not completed', async () => {
    const other = await seedTaskWorld(app, { plan: 'standard' });
    const documentId = await completedDocument(other, '旧契約書');
    // The completion is told to plugins by a job: let it pass while Box is not connected yet.
    await waitFor('the completion event', async () => {
      const counts = await app.service.deps.jobs.counts('documents.completed');
      return !counts.created && !counts.active && !counts.retry;
    });
    const notConnected = await app.api.call('sendDocumentToBox', { token: other.ownerA.token, params: { documentId } });
    expect([notConnected.status, errorCode(notConnected.body)]).toEqual([409, 'BOX_NOT_CONNECTED']);
    const none = await uploadOf(other.ownerA.token, documentId);
    expect([none.status, errorCode(none.body)]).toEqual([404, 'BOX_UPLOAD_NOT_FOUND']);

    expect((await connect(other.ownerA.token)).completed.status).toBe(200);
    const draft = await newDocument(app, other.ownerA.token, other.flowId, 'clean', '下書き');
    const early = await app.api.call('sendDocumentToBox', { token: other.ownerA.token, params: { documentId: draft } });
    expect([early.status, errorCode(early.body)]).toEqual([409, 'DOCUMENT_NOT_COMPLETED']);
    const sent = await app.api.call('sendDocumentToBox', { token: other.ownerA.token, params: { documentId } });
    expect(sent.status).toBe(202);
    const manual = await settledUpload(other.ownerA.token, documentId);
    expect(manual.attributes, JSON.stringify(manual.attributes)).toMatchObject({
      status: 'done',
      trigger: 'manual',
    });
    const log = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: other.ownerA.organizationId })
      .whereIn('action', ['box.connected', 'box.document_sent'])
      .pluck('action');
    expect(log.sort()).toEqual(['box.connected', 'box.document_sent']);
  });

  it("keeps each organization's Box to itself and its settings to administrators", async () => {
    const documentId = (
      await app.service.deps
        .knex('box_uploads')
        .where({ organization_id: w.ownerA.organizationId })
        .first('document_id')
    ).document_id;
    const stranger = await signedInOwner(app, { plan: 'standard' });
    const seen = await uploadOf(stranger.token, documentId);
    expect([seen.status, errorCode(seen.body)]).toEqual([404, 'NOT_FOUND']);
    const sent = await app.api.call('sendDocumentToBox', { token: stranger.token, params: { documentId } });
    expect(sent.status).toBe(404);
    const list = await app.api.call('listBoxUploads', { token: stranger.token });
    expect(list.body.data).toEqual([]);
    expect((await app.api.call('getBoxConnection', { token: stranger.token })).body.data.attributes.connected).toBe(
      false,
    );

    const member = await memberToken(app, w.ownerA.organizationId);
    for (const op of ['getBoxConnection', 'listBoxUploads', 'listBoxFolders', 'disconnectBox'] as const) {
      const refused = await app.api.call(op, { token: member });
      expect([op, refused.status, errorCode(refused.body)]).toEqual([op, 403, 'FUNCTION_NOT_PERMITTED']);
    }

    const free = await signedInOwner(app, { plan: 'free' });
    const gated = await app.api.call('getBoxConnection', { token: free.token });
    expect([gated.status, errorCode(gated.body)]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
  });

  it('turns a revoked authorization into BOX_AUTH_FAILED on the upload and the settings, and mails the administrators once', async () => {
    box.revokeAll();
    const documentId = await completedDocument(w, '解約合意書');
    const upload = await settledUpload(w.ownerA.token, documentId);
    expect(upload.attributes).toMatchObject({ status: 'failed', errorCode: 'BOX_AUTH_FAILED', attempts: 1 });
    const settings = await app.api.call('getBoxConnection', { token: w.ownerA.token });
    expect(settings.body.data.attributes).toMatchObject({
      status: 'auth_failed',
      lastError: { code: 'BOX_AUTH_FAILED' },
      failedUploads: 1,
    });
    const folders = await app.api.call('listBoxFolders', { token: w.ownerA.token });
    expect([folders.status, errorCode(folders.body)]).toEqual([502, 'BOX_AUTH_FAILED']);
    expect(folders.body.errors[0].meta.messages.ja).toContain('Box認証に失敗しました。');
    const sent = await app.api.call('sendDocumentToBox', { token: w.ownerA.token, params: { documentId } });
    expect([sent.status, errorCode(sent.body)]).toEqual([502, 'BOX_AUTH_FAILED']);

    const owner = await app.service.deps.knex('users').where({ id: w.ownerA.ownerId }).first('email');
    const mail = await waitForMail(app, (m) => recipientOf(m).includes(owner.email) && /Box/.test(m.subject ?? ''));
    expect(mail.subject).toBe('【Keiyaku】Box認証に失敗しました');
    const second = await completedDocument(w, '覚書');
    expect((await settledUpload(w.ownerA.token, second)).attributes.errorCode).toBe('BOX_AUTH_FAILED');
    const sentMails = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: w.ownerA.organizationId, action: 'box.auth_failed' })
      .count<{ n: number }[]>({ n: '*' });
    expect(Number(sentMails[0]!.n)).toBe(1);

    // Connecting again clears it.
    expect((await connect(w.ownerA.token)).completed.body.data.attributes.status).toBe('connected');
  });

  it('disconnects, revoking the token at Box', async () => {
    const revokesBefore = box.requests.filter((r) => r === 'POST /oauth2/revoke').length;
    const gone = await app.api.call('disconnectBox', { token: w.ownerA.token });
    expect(gone.status).toBe(204);
    expect(box.requests.filter((r) => r === 'POST /oauth2/revoke').length).toBe(revokesBefore + 1);
    const after = await app.api.call('getBoxConnection', { token: w.ownerA.token });
    expect(after.body.data.attributes).toMatchObject({ connected: false, status: 'not_connected', rootFolder: null });
    const folders = await app.api.call('listBoxFolders', { token: w.ownerA.token });
    expect([folders.status, errorCode(folders.body)]).toEqual([409, 'BOX_NOT_CONNECTED']);
  });
});

describe('box plugin switched off', () => {
  it('answers 403 PLAN_FEATURE_UNAVAILABLE for its operations while documents complete as before', async () => {
    const off = await startApp({ env: { KEIYAKU_PLUGINS_DISABLED: 'box,malware-scan' }, plugins: BUILT_IN_PLUGINS });
    try {
      const w = await seedTaskWorld(off, { plan: 'standard' });
      const refused = await off.api.call('getBoxConnection', { token: w.ownerA.token });
      expect([refused.status, errorCode(refused.body)]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
      const documentId = await completedDocument(w, '通常の契約書', off);
      const row = await off.service.deps.knex('documents').where({ id: documentId }).first('status');
      expect(row.status).toBe('completed');
    } finally {
      await off.close();
    }
  });
});
