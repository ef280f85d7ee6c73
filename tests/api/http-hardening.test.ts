/*
 * The HTTP edge: who the client is behind proxies, HSTS, characters no field may hold, the upload size unit, hidden
 * characters in file names, and what Node's own parser refuses (431, 400) or cuts off (slow clients, 408).
 */
import { connect } from 'node:net';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../../core/contract/api.gen.ts';
import { loadContract } from '../../core/contract/document.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { signIn, signUpOrganization } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { callMultipart, markScanned, tryUpload, uploadForm } from '../helpers/documents.ts';
import { adminSession } from '../helpers/org-admin.ts';
import { buildPdf } from '../helpers/pdf.ts';

const MB = 1024 * 1024;

// `app` trusts 127.0.0.1 as its proxy (tests/helpers/app.ts); `direct` trusts no proxy and cuts slow clients off fast.
let app: TestApp;
let direct: TestApp;
beforeAll(async () => {
  // The malware-scan plugin stays off, so a test decides a version's verdict (markScanned) before downloading it.
  app = await startApp({ plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)) });
  direct = await startApp({
    env: {
      TRUSTED_PROXIES: '',
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await direct?.close();
});

const knex = () => app.service.deps.knex;

/** The contract's error body schema, for answers given outside any operation (431, 408, 400 from the parser). */
const errorResponse = (loadContract() as unknown as { validatorAt(pointer: string): ValidateFunction }).validatorAt(
  '/components/schemas/ErrorResponse',
);

/** Sends a JSON text as it is (escapes such as \u0000 survive) and checks the answer against the contract. */
async function sendRaw(target: TestApp, operationId: keyof operations, json: string, query = '') {
  const op = loadContract().operation(operationId);
  const response = await fetch(`${target.url}${op.base}${op.path}${query}`, {
    method: op.method,
    headers: { 'content-type': 'application/json' },
    body: json,
  });
  const body = (await response.json()) as any;
  target.api.check(operationId, response.status, response.headers.get('content-type'), body);
  return { status: response.status, body };
}

const fieldErrors = (body: { errors: { code: string; source?: { pointer: string } }[] }) =>
  body.errors.map((e) => [e.code, e.source?.pointer]);

/** Writes to a raw socket and collects everything the server sends until it closes the connection. */
function rawExchange(
  target: TestApp,
  start: string,
  options: { trickle?: string; everyMs?: number } = {},
): Promise<{ text: string; ms: number }> {
  const { port } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open for 10 s'));
    }, 10_000);
    socket.on('connect', () => {
      socket.write(start);
      if (options.trickle) {
        timer = setInterval(() => socket.writable && socket.write(options.trickle!), options.everyMs ?? 100);
      }
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer still closes: what was read is what counts
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - began });
    });
  });
}

/** Splits a raw HTTP response into status, headers (lower-case) and the parsed JSON body. */
function parseRaw(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined };
}

/** Checks a raw answer: the status, a JSON:API error body as the contract defines it, and its traceId header. */
function expectJsonApiError(text: string, status: number, code: string) {
  const response = parseRaw(text);
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/vnd.api+json');
  expect(response.headers['x-request-id']).toBe(response.body.errors[0].traceId);
  expect(errorResponse(response.body), JSON.stringify(errorResponse.errors)).toBe(true);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
  return response.body.errors[0];
}

describe('the client address behind trusted proxies (TRUSTED_PROXIES)', () => {
  async function restrictedOwner() {
    const admin = await adminSession(app, { plan: 'standard', signInHeaders: { 'x-forwarded-for': '203.0.113.7' } });
    const saved = await app.api.call('replaceIpRestrictions', {
      token: admin.token,
      body: { data: [{ type: 'IpRestriction', attributes: { cidr: '203.0.113.0/24' } }] },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(saved.status).toBe(200);
    return admin;
  }

  it('refuses a forged leftmost X-Forwarded-For: the rightmost hop our proxy saw decides IP restriction', async () => {
    const { token } = await restrictedOwner();
    // The client wrote "203.0.113.7" itself; the proxy at 127.0.0.1 appended the address it really came from.
    const forged = await app.api.call('getCurrentUser', {
      token,
      headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.9' },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.errors[0].code).toBe('IP_RESTRICTED');
    const genuine = await app.api.call('getCurrentUser', {
      token,
      headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.7' },
    });
    expect(genuine.status).toBe(200);
  });

  it('records the rightmost untrusted hop in the session and the operation log, never the forged entry', async () => {
    const org = await signUpOrganization(app);
    await signIn(app, org.loginId, org.password, { 'x-forwarded-for': '192.0.2.1, 198.51.100.23' });
    const log = await knex()('operation_logs')
      .where({ organization_id: org.organizationId, action: 'auth.signed_in' })
      .first();
    expect(log.ip).toBe('198.51.100.23');
    const session = await knex()('auth_sessions').where({ user_id: org.ownerId }).first();
    expect(session.ip).toBe('198.51.100.23');
  });

  it('ignores X-Forwarded-For altogether when the peer is not a trusted proxy', async () => {
    const org = await signUpOrganization(direct);
    await signIn(direct, org.loginId, org.password, { 'x-forwarded-for': '203.0.113.7' });
    const session = await direct.service.deps.knex('auth_sessions').where({ user_id: org.ownerId }).first();
    expect(session.ip).toBe('127.0.0.1');
  });
});

describe('Strict-Transport-Security', () => {
  const health = (target: TestApp, headers: Record<string, string> = {}) => fetch(`${target.url}/healthz`, { headers });

  it('is sent when a trusted proxy says the client came over https', async () => {
    const response = await health(app, { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' });
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('is not sent over plain HTTP, nor on an https claim from a peer that is not a trusted proxy', async () => {
    expect((await health(app)).headers.get('strict-transport-security')).toBeNull();
    expect((await health(app, { 'x-forwarded-proto': 'http' })).headers.get('strict-transport-security')).toBeNull();
    const claimed = await health(direct, { 'x-forwarded-proto': 'https' });
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('NUL, control characters and unpaired surrogates in JSON strings', () => {
  const signInText = (loginId: string) =>
    `{"data":{"type":"Auth","attributes":{"loginId":"${loginId}","password":"correct-horse1"}}}`;

  it('refuses them anonymously on sign-in with 422 INVALID_CHARACTERS and a pointer, not a 500', async () => {
    for (const escape of ['\\u0000', '\\ud800', '\\udc00x', '\\u001b']) {
      const result = await sendRaw(app, 'signIn', signInText(`owner${escape}`));
      expect([result.status, fieldErrors(result.body)], escape).toEqual([
        422,
        [['INVALID_CHARACTERS', '/data/attributes/loginId']],
      ]);
    }
  });

  it('accepts a well-formed surrogate pair, tabs and line breaks (the sign-in fails on credentials only)', async () => {
    const result = await sendRaw(app, 'signIn', signInText('\\ud83d\\ude00\\t\\n'));
    expect(result.status).toBe(401);
  });

  it('refuses them on sign-up and password reset, every field named, keys included', async () => {
    const signUp = await sendRaw(
      app,
      'signUp',
      JSON.stringify({
        data: {
          type: 'SignUp',
          attributes: {
            organizationName: 'ACME\u0000',
            loginId: 'owner-nul',
            userName: 'Yamada\ud800',
            email: 'nul@example.com',
            password: 'correct-horse1',
            passwordConfirmation: 'correct-horse1',
            acceptTermId: '00000000-0000-4000-8000-000000000000',
          },
        },
      }),
    );
    expect(signUp.status).toBe(422);
    expect(fieldErrors(signUp.body)).toEqual([
      ['INVALID_CHARACTERS', '/data/attributes/organizationName'],
      ['INVALID_CHARACTERS', '/data/attributes/userName'],
    ]);

    const request = await sendRaw(
      app,
      'requestPasswordReset',
      '{"data":{"type":"PasswordResetRequest","attributes":{"loginId":"a\\u0000","email":"a@example.com"}}}',
    );
    expect([request.status, fieldErrors(request.body)]).toEqual([
      422,
      [['INVALID_CHARACTERS', '/data/attributes/loginId']],
    ]);

    const reset = await sendRaw(
      app,
      'resetPassword',
      '{"data":{"type":"PasswordReset","attributes":{"token":"t\\ud800","password":"p","passwordConfirmation":"p","x\\u0000":1}}}',
    );
    expect([reset.status, fieldErrors(reset.body)]).toEqual([
      422,
      [
        ['INVALID_CHARACTERS', '/data/attributes/token'],
        ['INVALID_CHARACTERS', '/data/attributes/x\u0000'],
      ],
    ]);
  });

  it('refuses a NUL in a query or path parameter ("%00") the same way', async () => {
    const { token } = await adminSession(app);
    const query = await fetch(`${app.url}/core/v1/users?filter%5Bq%5D=a%00b`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const queryBody = (await query.json()) as any;
    app.api.check('listUsers', query.status, query.headers.get('content-type'), queryBody);
    expect([query.status, fieldErrors(queryBody)]).toEqual([422, [['INVALID_CHARACTERS', '/filter[q]']]]);

    const path = await fetch(`${app.url}/core/v1/users/%00`, { headers: { authorization: `Bearer ${token}` } });
    const pathBody = (await path.json()) as any;
    app.api.check('getUser', path.status, path.headers.get('content-type'), pathBody);
    expect([path.status, fieldErrors(pathBody)]).toEqual([422, [['INVALID_CHARACTERS', '/userId']]]);

    // A parameter the operation does not declare is ignored by its handler, so it is not refused either.
    const undeclared = await fetch(`${app.url}/core/v1/me?utm%00=a%00b`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(undeclared.status).toBe(200);
  });
});

describe('uploads: the size unit and hidden characters in file names', () => {
  async function ownerWithFlow() {
    const admin = await adminSession(app, { plan: 'professional' });
    const seeded = await seedBusinessFlow(app, {
      organizationId: admin.organizationId,
      groupId: admin.defaultGroupId,
      createdBy: admin.ownerId,
    });
    return { admin, ...seeded };
  }

  /** A valid PDF of exactly `size` bytes: padded with a comment line after its end, then %%EOF again. */
  async function pdfOfExactly(size: number): Promise<Buffer> {
    const pdf = await buildPdf();
    const tail = Buffer.from('\n%%EOF\n');
    const padding = Buffer.alloc(size - pdf.length - tail.length - 2, 0x20);
    const bytes = Buffer.concat([pdf, Buffer.from('\n%'), padding, tail]);
    expect(bytes.length).toBe(size);
    return bytes;
  }

  it('accepts a file of exactly 30 MB (31,457,280 bytes) and refuses one byte more with 413 FILE_TOO_LARGE', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const exact = await pdfOfExactly(30 * MB);
    const accepted = await tryUpload(app, admin.token, businessFlowId, { bytes: exact });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.attributes.versions[0].size).toBe(31_457_280);

    const refused = await tryUpload(app, admin.token, businessFlowId, { bytes: await pdfOfExactly(30 * MB + 1) });
    expect(refused.status).toBe(413);
    expect(refused.body.errors[0].code).toBe('FILE_TOO_LARGE');
    expect(refused.body.errors[0].meta.messages.en).toBe('The file is larger than the limit (30 MB).');
  });

  it('removes bidi overrides, marks and zero-width characters from the stored, listed and downloaded name', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const uploaded = await tryUpload(app, admin.token, businessFlowId, {
      fileName: 'invoice\u202Efdp.exe',
      name: undefined,
    });
    expect(uploaded.status).toBe(201);
    const documentId = uploaded.body.data.id as string;
    expect(uploaded.body.data.attributes.versions[0].fileName).toBe('invoicefdp.exe');
    expect(uploaded.body.data.attributes.name).toBe('invoicefdp.exe');
    const row = await knex()('document_versions').where({ document_id: documentId }).first();
    expect(row.file_name).toBe('invoicefdp.exe');

    // A name stored before the cleaning existed is cleaned where it is served (the download is named after the
    // document: `{document name}.pdf`).
    await knex()('document_versions')
      .where({ id: row.id })
      .update({ file_name: '\u2067契約書\u2069\u200B\u200F.pdf\u061C' });
    await knex()('documents').where({ id: documentId }).update({ name: '\u2067契約書\u2069\u200B\u200F\u061C' });
    await markScanned(app, documentId);
    const download = await fetch(`${app.url}/core/v1/documents/${documentId}/file`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="___.pdf"; filename*=UTF-8''${encodeURIComponent('契約書.pdf')}`,
    );
    const detail = await app.api.call('getDocument', { token: admin.token, params: { documentId } });
    expect(detail.body.data.attributes.versions[0].fileName).toBe('契約書.pdf');
  });

  it('refuses a NUL in a text field of the upload form with 422 INVALID_CHARACTERS', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const result = await callMultipart(app, 'uploadDocument', {
      token: admin.token,
      params: { businessFlowId },
      form: await uploadForm({ name: 'contract\u0000' }),
    });
    expect([result.status, fieldErrors(result.body)]).toEqual([422, [['INVALID_CHARACTERS', '/name']]]);
  });

  it('refuses an escaped NUL or lone surrogate inside the JSON of the properties field with 422 INVALID_CHARACTERS', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const propertyId = '0190f1a2-0000-7000-8000-000000000001';
    const result = await callMultipart(app, 'uploadDocument', {
      token: admin.token,
      params: { businessFlowId },
      form: await uploadForm({
        properties: [
          { propertyId, value: 'a\u0000' },
          { propertyId, value: '\ud800' },
        ],
      }),
    });
    expect([result.status, fieldErrors(result.body)]).toEqual([
      422,
      [
        ['INVALID_CHARACTERS', '/properties/0/value'],
        ['INVALID_CHARACTERS', '/properties/1/value'],
      ],
    ]);
  });
});

describe("what Node's parser refuses, answered as JSON:API errors", () => {
  it('answers an over-long URL with 431 REQUEST_HEADER_TOO_LARGE', async () => {
    const { text } = await rawExchange(app, `GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const error = expectJsonApiError(text, 431, 'REQUEST_HEADER_TOO_LARGE');
    expect(error.meta.messages).toEqual({
      ja: 'リクエストのヘッダーまたはアドレスが長すぎます。',
      en: 'The request headers or URL are too long.',
    });
  });

  it('answers an over-long header with 431 REQUEST_HEADER_TOO_LARGE', async () => {
    const { text } = await rawExchange(app, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expectJsonApiError(text, 431, 'REQUEST_HEADER_TOO_LARGE');
  });

  it('answers a request line that is not HTTP with 400 MALFORMED_REQUEST', async () => {
    const { text } = await rawExchange(app, 'HELLO THERE\r\n\r\n');
    expectJsonApiError(text, 400, 'MALFORMED_REQUEST');
  });
});

describe('slow clients', () => {
  it('disconnects a client that trickles its headers (slowloris) after HTTP_HEADERS_TIMEOUT_MS with 408', async () => {
    const { text, ms } = await rawExchange(direct, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', {
      trickle: 'a',
      everyMs: 100,
    });
    // 500 ms allowed, checked every 125 ms: cut off well before the 10 s the guard allows.
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(3_000);
    expectJsonApiError(text, 408, 'REQUEST_TIMEOUT');
  });

  it('disconnects a client whose body never finishes after HTTP_REQUEST_TIMEOUT_MS with 408', async () => {
    const head =
      'POST /core/v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const { text, ms } = await rawExchange(direct, `${head}{"data":`, { trickle: ' ', everyMs: 100 });
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(4_000);
    expectJsonApiError(text, 408, 'REQUEST_TIMEOUT');
  });

  it('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { text, ms } = await rawExchange(
      direct,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n',
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeLessThan(3_000);
  });
});
