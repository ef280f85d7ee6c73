import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendSignRecord, type SignRecordEntry } from '../../core/modules/sign-records/ledger.ts';
import { parseCsv, verifyCsv } from '../../cli/log-csv.ts';
import { type TestApp, startApp } from '../helpers/app.ts';
import { memberToken, signedInOwner } from '../helpers/accounts.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

const knex = () => app.service.deps.knex;
const today = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
const daysFrom = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Downloads once, keeping the raw bytes (fetch's text() drops a BOM), and checks the answer against the contract. */
async function download(operationId: 'downloadOperationLogs' | 'downloadSignRecords', token: string, query: object) {
  const path = operationId === 'downloadOperationLogs' ? 'operation-logs' : 'sign-records';
  const response = await fetch(
    `${app.url}/core/v1/${path}/download?${new URLSearchParams(query as Record<string, string>)}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const raw = Buffer.from(await response.arrayBuffer());
  const csv = response.headers.get('content-type')?.startsWith('text/csv') ?? false;
  const body = csv ? raw.toString('utf8') : JSON.parse(raw.toString('utf8'));
  app.api.check(operationId, response.status, response.headers.get('content-type'), body);
  return {
    status: response.status,
    headers: response.headers,
    body,
    raw: csv ? raw : null,
    rows: csv ? parseCsv(raw.toString('utf8')).map((r) => r.cells) : [],
  };
}

const column = (rows: (string | null)[][], name: string) => rows[0]!.indexOf(name);

function record(organizationId: string, overrides: Partial<SignRecordEntry> = {}): SignRecordEntry {
  return {
    organizationId,
    documentId: '00000000-0000-4000-8000-000000000001',
    documentRevision: 2,
    signerUserId: null,
    signerName: '山田 太郎',
    signatureType: 'party',
    certificateSubject: 'CN=山田 太郎, O=株式会社テスト',
    certificateSerial: '01AB',
    certificateFingerprint: 'a'.repeat(64),
    signedAt: new Date(),
    timestampAt: new Date(),
    documentHash: 'b'.repeat(64),
    ...overrides,
  };
}

describe('log downloads', () => {
  it('accepts a range of 31 days and refuses 32 days with 422 LOG_RANGE_TOO_LONG', async () => {
    const { token } = await signedInOwner(app);
    const from = daysFrom(today(), -30);
    expect((await download('downloadOperationLogs', token, { from, to: today() })).status).toBe(200);
    const refused = await download('downloadOperationLogs', token, { from: daysFrom(from, -1), to: today() });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: 'LOG_RANGE_TOO_LONG', source: { pointer: '/to' } });
    const ledger = await download('downloadSignRecords', token, { from: daysFrom(from, -1), to: today() });
    expect(ledger.body.errors[0].code).toBe('LOG_RANGE_TOO_LONG');
  });

  it('refuses a start after the end with 422 LOG_RANGE_INVERTED', async () => {
    const { token } = await signedInOwner(app);
    const refused = await download('downloadOperationLogs', token, { from: today(), to: daysFrom(today(), -1) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: 'LOG_RANGE_INVERTED', source: { pointer: '/from' } });
  });

  it('refuses a bound that is neither yyyy-MM-dd nor an RFC 3339 date-time with 422', async () => {
    const { token } = await signedInOwner(app);
    const refused = await download('downloadOperationLogs', token, { from: '2026/11/01', to: today() });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].source.pointer).toBe('/from');
  });

  it('requires the logs:download permission: a member gets 403 FUNCTION_NOT_PERMITTED from every log operation', async () => {
    const org = await signedInOwner(app);
    const token = await memberToken(app, org.organizationId);
    const range = { from: today(), to: today() };
    for (const operationId of ['downloadOperationLogs', 'downloadSignRecords'] as const) {
      const response = await app.api.call(operationId, { token, query: range });
      expect(response.status).toBe(403);
      expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    }
    for (const operationId of ['verifyOperationLogs', 'verifySignRecords'] as const) {
      expect((await app.api.call(operationId, { token })).status).toBe(403);
    }
    const logged = await knex()('operation_logs').where({
      organization_id: org.organizationId,
      action: 'logs.downloaded',
    });
    expect(logged).toEqual([]);
  });

  it('writes UTF-8 with a BOM, CRLF line ends, a header row and the server file name', async () => {
    const { token } = await signedInOwner(app);
    const response = await download('downloadOperationLogs', token, { from: '2026-11-01', to: '2026-11-30' });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="operation-logs_20261101-20261130.csv"',
    );
    expect([...response.raw!.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = response.raw!.toString('utf8');
    expect(text.slice(1).split('\r\n')[0]).toBe(
      'id,timestamp,timestamp_jst,organization_id,actor_user_id,actor_login_id,actor_name,action,target_type,' +
        'target_id,ip,user_agent,trace_id,details,prev_hash,hash',
    );
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
  });

  it('quotes commas, quotes and line breaks (RFC 4180) and keeps Japanese text intact', async () => {
    const org = await signedInOwner(app);
    const tricky = 'a,b "引用" 改行\r\nあり';
    await app.service.deps.oplog.record(knex(), null, {
      action: 'test.tricky',
      organizationId: org.organizationId,
      targetType: 'note',
      targetId: 'x,"y"',
      details: { note: tricky, 名前: '山田' },
    });
    const { raw, rows } = await download('downloadOperationLogs', org.token, { from: today(), to: today() });
    const row = rows.find((cells) => cells[column(rows, 'action')] === 'test.tricky')!;
    expect(row[column(rows, 'target_id')]).toBe('x,"y"');
    expect(JSON.parse(row[column(rows, 'details')]!)).toEqual({ note: tricky, 名前: '山田' });
    expect(raw!.toString('utf8')).toContain('"x,""y"""');
    // Null is an empty unquoted field (no request, so no IP); the file verifies with those conventions.
    expect(row[column(rows, 'ip')]).toBeNull();
    expect(verifyCsv(raw!.toString('utf8')).firstBad).toBeNull();
  });

  it('names the actor and shows the time in Japan time beside the hashed UTC instant', async () => {
    const org = await signedInOwner(app);
    const { rows } = await download('downloadOperationLogs', org.token, { from: today(), to: today() });
    const signUp = rows.find((cells) => cells[column(rows, 'actor_user_id')] === org.ownerId)!;
    expect(signUp[column(rows, 'actor_login_id')]).toBe(org.loginId);
    expect(signUp[column(rows, 'actor_name')]).toBe('山田 太郎');
    const utc = new Date(signUp[column(rows, 'timestamp')]!);
    const jst = new Date(`${signUp[column(rows, 'timestamp_jst')]!.replace(' ', 'T')}+09:00`);
    expect(Math.abs(utc.getTime() - jst.getTime())).toBeLessThan(1000);
  });

  it("exports only the own organization's rows", async () => {
    const mine = await signedInOwner(app);
    const other = await signedInOwner(app);
    const { rows } = await download('downloadOperationLogs', mine.token, { from: today(), to: today() });
    const orgs = new Set(rows.slice(1).map((cells) => cells[column(rows, 'organization_id')]));
    expect([...orgs]).toEqual([mine.organizationId]);
    expect(rows.flat()).not.toContain(other.organizationId);
  });

  it('streams a range longer than one read batch, every row once and in id order', async () => {
    const org = await signedInOwner(app);
    await knex().transaction(async (trx) => {
      for (let i = 0; i < 1100; i++) {
        await app.service.deps.oplog.append(trx, null, {
          action: 'test.bulk',
          organizationId: org.organizationId,
          details: { i },
        });
      }
    });
    const { rows, raw } = await download('downloadOperationLogs', org.token, { from: today(), to: today() });
    const bulk = rows.filter((cells) => cells[column(rows, 'action')] === 'test.bulk');
    expect(bulk.map((cells) => JSON.parse(cells[column(rows, 'details')]!).i)).toEqual([...Array(1100).keys()]);
    const ids = rows.slice(1).map((cells) => Number(cells[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(verifyCsv(raw!.toString('utf8'))).toMatchObject({ firstBad: null });
  });

  it('records each download in the operation log with its range', async () => {
    const org = await signedInOwner(app);
    await download('downloadOperationLogs', org.token, { from: '2026-11-01', to: '2026-11-30' });
    await download('downloadSignRecords', org.token, { from: '2026-11-01', to: '2026-11-01' });
    const rows = await knex()('operation_logs')
      .where({ organization_id: org.organizationId, action: 'logs.downloaded' })
      .orderBy('id');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      actor_user_id: org.ownerId,
      target_type: 'organization',
      target_id: org.organizationId,
      details: { log: 'operation_logs', from: '2026-10-31T15:00:00.000Z', to: '2026-11-30T14:59:59.999Z' },
    });
    expect(rows[1].details).toEqual({
      log: 'sign_records',
      from: '2026-10-31T15:00:00.000Z',
      to: '2026-11-01T14:59:59.999Z',
    });
  });
});

describe('sign record ledger', () => {
  it('downloads the ledger as CSV with every hashed field, verifiable offline', async () => {
    const org = await signedInOwner(app);
    const other = await signedInOwner(app);
    await knex().transaction(async (trx) => {
      await appendSignRecord(trx, record(org.organizationId, { signerUserId: org.ownerId }), new Date());
      await appendSignRecord(trx, record(org.organizationId, { documentRevision: 3, timestampAt: null }), new Date());
      await appendSignRecord(trx, record(other.organizationId), new Date());
    });
    const response = await download('downloadSignRecords', org.token, { from: today(), to: today() });
    expect(response.headers.get('content-disposition')).toContain('sign-records_');
    const { rows } = response;
    expect(rows).toHaveLength(3);
    expect(rows[1]![column(rows, 'signer_login_id')]).toBe(org.loginId);
    expect(rows[1]![column(rows, 'certificate_subject')]).toBe('CN=山田 太郎, O=株式会社テスト');
    expect(rows[2]![column(rows, 'timestamp_at')]).toBeNull();
    expect(rows[2]![column(rows, 'prev_hash')]).toBe(rows[1]![column(rows, 'hash')]);
    expect(verifyCsv(response.raw!.toString('utf8'))).toEqual({
      kind: 'sign record ledger',
      checked: 2,
      firstBad: null,
    });
  });

  it('is append-only: updating or deleting a row fails', async () => {
    const org = await signedInOwner(app);
    await knex().transaction((trx) => appendSignRecord(trx, record(org.organizationId), new Date()));
    const scope = () => knex()('sign_records').where({ organization_id: org.organizationId });
    await expect(scope().update({ signer_name: '偽造' })).rejects.toThrow(/append-only/);
    await expect(scope().delete()).rejects.toThrow(/append-only/);
    expect((await scope().first()).signer_name).toBe('山田 太郎');
  });

  it('verification names the first tampered ledger row', async () => {
    const org = await signedInOwner(app);
    const ids: number[] = [];
    await knex().transaction(async (trx) => {
      for (let i = 0; i < 3; i++) ids.push((await appendSignRecord(trx, record(org.organizationId), new Date())).id);
    });
    expect((await app.api.call('verifySignRecords', { token: org.token })).body.data.attributes).toEqual({
      valid: true,
      checked: 3,
      firstBadRow: null,
    });
    await tamper('sign_records', 'sign_records_no_change', (table) =>
      table()
        .where({ id: ids[1] })
        .update({ document_hash: 'c'.repeat(64) }),
    );
    const verdict = await app.api.call('verifySignRecords', { token: org.token });
    expect(verdict.body.data).toEqual({
      type: 'SignRecordVerification',
      attributes: { valid: false, checked: 1, firstBadRow: { id: String(ids[1]), reason: 'hash_mismatch' } },
    });
  });
});

/** Changes rows behind the append-only trigger's back, as an attacker with database access could. */
async function tamper(table: string, trigger: string, change: (table: () => Knex.QueryBuilder) => Promise<unknown>) {
  await knex().transaction(async (trx) => {
    await trx.raw(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
    await change(() => trx(table));
    await trx.raw(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  });
}

describe('operation log verification', () => {
  it('reports an intact chain as valid with the number of rows checked', async () => {
    const org = await signedInOwner(app);
    const count = await knex()('operation_logs').where({ organization_id: org.organizationId }).count({ n: '*' });
    const response = await app.api.call('verifyOperationLogs', { token: org.token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      type: 'OperationLogVerification',
      attributes: { valid: true, checked: Number(count[0]!.n), firstBadRow: null },
    });
  });

  it('names an edited row (hash_mismatch) and, for a removed row, the row after it (broken_link)', async () => {
    const org = await signedInOwner(app);
    for (let i = 0; i < 4; i++) {
      await app.service.deps.oplog.record(knex(), null, {
        action: 'test.row',
        organizationId: org.organizationId,
        details: { i },
      });
    }
    const rows = await knex()('operation_logs').where({ organization_id: org.organizationId }).orderBy('id');
    const victim = rows[rows.length - 3];
    await tamper('operation_logs', 'operation_logs_no_change', (table) =>
      table()
        .where({ id: victim.id })
        .update({ details: JSON.stringify({ i: 99 }) }),
    );
    let verdict = (await app.api.call('verifyOperationLogs', { token: org.token })).body.data.attributes;
    expect(verdict).toEqual({
      valid: false,
      checked: rows.length - 3,
      firstBadRow: { id: String(victim.id), reason: 'hash_mismatch' },
    });

    const removed = rows[rows.length - 2];
    await tamper('operation_logs', 'operation_logs_no_change', async (table) => {
      await table()
        .where({ id: victim.id })
        .update({ details: JSON.stringify(victim.details) });
      await table().where({ id: removed.id }).delete();
    });
    verdict = (await app.api.call('verifyOperationLogs', { token: org.token })).body.data.attributes;
    expect(verdict.firstBadRow).toEqual({ id: String(rows.at(-1).id), reason: 'broken_link' });
  });
});
