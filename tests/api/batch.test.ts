import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '../../core/http/context.ts';
import { AppError } from '../../core/http/errors.ts';
import { lockImports } from '../../core/modules/batch/import-lock.ts';
import { runImport } from '../../core/modules/batch/run-import.ts';
import { queueInvitation } from '../../core/modules/users/invitation.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { activeMember, adminSession, createGroup, NO_TASKS, uniqueLoginId } from '../helpers/org-admin.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.close());

const knex = () => app.service.deps.knex;
type Target = 'users' | 'groups';

/** POSTs a CSV body (text/csv unless told) and checks the answer against the contract. */
async function importCsv(
  token: string,
  target: Target,
  csv: string | Uint8Array,
  options: { dryRun?: boolean; contentType?: string } = {},
) {
  const response = await fetch(`${app.url}/core/v1/batch/${target}?dryRun=${options.dryRun ?? false}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': options.contentType ?? 'text/csv' },
    body: csv,
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  app.api.check(
    target === 'users' ? 'importUsersCsv' : 'importGroupsCsv',
    response.status,
    response.headers.get('content-type'),
    body,
  );
  return { status: response.status, body, attributes: body?.data?.attributes };
}

/** GETs an export; the CSV text on 200, the parsed error otherwise, checked against the contract. */
async function exportCsv(token: string, target: Target, query: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/core/v1/batch/${target}?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  // Decoded keeping the BOM (response.text() would drop it).
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  const body = response.status === 200 ? text : JSON.parse(text);
  app.api.check(
    target === 'users' ? 'exportUsersCsv' : 'exportGroupsCsv',
    response.status,
    response.headers.get('content-type'),
    body,
  );
  return { status: response.status, text, body, headers: response.headers };
}

const HEADER = 'operation,loginId,name,email,groups';
const userLine = (loginId: string, groups: string, operation = 'add') =>
  `${operation},${loginId},利用者 ${loginId},${loginId}@example.com,${groups}`;
const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

const usersNamed = (organizationId: string, loginIds: string[]) =>
  knex()('users')
    .where({ organization_id: organizationId })
    .whereIn('login_id', loginIds)
    .whereNot({ status: 'deleted' });
/** How many sessions of this file's database wait for a row another transaction has locked. */
const waitingForRows = async () =>
  (
    await knex().raw(`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple')`)
  ).rows[0].n as number;

/**
 * A writer about to log: its transaction locks rows (`lock`), `start` begins what must wait for them, and once a
 * session waits for a row the writer must get the organization's log lock at once (no one waiting holds it); then it
 * commits.
 */
async function asWriterAboutToLog(
  organizationId: string,
  lock: (writer: Knex.Transaction) => Promise<unknown>,
  start: () => unknown,
) {
  const writer = await knex().transaction();
  try {
    await lock(writer);
    await start();
    await expect.poll(waitingForRows, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await logLockFree(writer, organizationId)).toBe(true);
    await writer.commit();
  } finally {
    if (!writer.isCompleted()) await writer.rollback();
  }
}

/** How many sessions of this file's database wait for an advisory lock (an import's, the log's). */
const waitingForAdvisoryLocks = async () =>
  (
    await knex().raw(`SELECT count(*)::int AS n FROM pg_locks
      WHERE NOT granted AND locktype = 'advisory'
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
  ).rows[0].n as number;

/** Whether `trx` gets the organization's operation-log lock at once (what a writer about to log needs). */
const logLockFree = async (trx: Knex.Transaction, organizationId: string) =>
  (await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS free', [`operation_logs:${organizationId}`])).rows[0]
    .free as boolean;

const logsOf = (organizationId: string, action: string) =>
  knex()('operation_logs').where({ organization_id: organizationId, action }).orderBy('id');

// First: the member's invitation must not queue behind the invitations of the imports below.
describe('permission', () => {
  it('only organization administrators may import or export (403 FUNCTION_NOT_PERMITTED)', async () => {
    const admin = await adminSession(app);
    const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
    const imported = await importCsv(member.token, 'users', csv(HEADER, userLine(uniqueLoginId('no'), 'x')));
    expect(imported.status).toBe(403);
    expect(imported.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    for (const target of ['users', 'groups'] as const) {
      const exported = await exportCsv(member.token, target);
      expect(exported.status).toBe(403);
    }
  });
});

describe('users CSV import', () => {
  it('a preview (dryRun) reports what each row would do and writes nothing', async () => {
    const admin = await adminSession(app);
    const group = await createGroup(app, admin.token, '営業部');
    const [a, b] = [uniqueLoginId('prev'), uniqueLoginId('prev')];
    const logsBefore = await knex()('operation_logs')
      .where({ organization_id: admin.organizationId })
      .count({ n: '*' });
    const preview = await importCsv(admin.token, 'users', csv(HEADER, userLine(a, '営業部'), userLine(b, 'nope')), {
      dryRun: true,
    });
    expect(preview.status).toBe(200);
    expect(preview.attributes).toMatchObject({
      target: 'users',
      dryRun: true,
      counts: { total: 2, added: 1, failed: 1 },
    });
    expect(preview.attributes.rows.map((r: any) => [r.line, r.key, r.outcome])).toEqual([
      [2, a, 'added'],
      [3, b, 'failed'],
    ]);
    expect(await usersNamed(admin.organizationId, [a, b])).toEqual([]);
    expect(await knex()('group_members').where({ group_id: group })).toEqual([]);
    const logsAfter = await knex()('operation_logs').where({ organization_id: admin.organizationId }).count({ n: '*' });
    expect(logsAfter).toEqual(logsBefore);
  });

  it('a row with an unknown group fails alone, leaving no user, membership or log row, while the other rows apply', async () => {
    const admin = await adminSession(app);
    const sales = await createGroup(app, admin.token, '営業部', 'G-SALES');
    const [good1, bad, good2] = [uniqueLoginId('ok'), uniqueLoginId('bad'), uniqueLoginId('ok')];
    const result = await importCsv(
      admin.token,
      'users',
      csv(HEADER, userLine(good1, '営業部'), userLine(bad, '営業部;存在しない部'), userLine(good2, 'G-SALES')),
    );
    expect(result.status).toBe(200);
    expect(result.attributes.counts).toEqual({ total: 3, added: 2, updated: 0, deleted: 0, unchanged: 0, failed: 1 });
    const failed = result.attributes.rows[1];
    expect(failed).toMatchObject({ line: 3, key: bad, outcome: 'failed' });
    expect(failed.errors).toEqual([
      {
        code: 'BATCH_UNKNOWN_GROUP',
        column: 'groups',
        messages: { ja: 'グループ「存在しない部」が見つかりません。', en: 'Group "存在しない部" was not found.' },
      },
    ]);
    expect(await knex()('users').where({ login_id: bad })).toEqual([]);
    const added = await usersNamed(admin.organizationId, [good1, good2]).select('id');
    expect(added).toHaveLength(2);
    const members = await knex()('group_members').where({ group_id: sales }).pluck('user_id');
    expect(members.sort()).toEqual(added.map((u: { id: string }) => u.id).sort());
    const created = await logsOf(admin.organizationId, 'user.created');
    expect(created.map((row) => row.details.loginId).sort()).toEqual([good1, good2].sort());
    const summary = await logsOf(admin.organizationId, 'batch.users_imported');
    expect(summary).toHaveLength(1);
    expect(summary[0].details).toMatchObject({ counts: { added: 2, failed: 1 }, failedLines: [3] });
  });

  it('a row that fails after writing is rolled back to its savepoint while the other rows commit', async () => {
    const admin = await adminSession(app);
    const principal = { userId: admin.ownerId, organizationId: admin.organizationId } as Principal;
    const req = { traceId: 'batch-test', ip: '127.0.0.1', userAgent: 'test' } as never;
    const result = await runImport(
      app.service.deps,
      req,
      principal,
      (deps) => ({
        name: 'groups',
        keyColumn: 'name',
        prepare: async () => null,
        async apply(trx, row) {
          await trx('groups').insert({ organization_id: admin.organizationId, name: row.cells.name });
          const details = { name: row.cells.name };
          await deps.oplog.append(trx, null, { organizationId: admin.organizationId, action: 'test.row', details });
          if (row.cells.name === 'half') throw new AppError('VALIDATION_FAILED', { pointer: '/data/attributes/name' });
          return 'added';
        },
      }),
      ['first', 'half', 'last'].map((name, i) => ({ line: i + 2, cells: { operation: 'add', name } })),
      false,
    );
    expect(result.data.attributes.counts).toMatchObject({ added: 2, failed: 1 });
    expect(result.data.attributes.rows[1]!.errors[0]).toMatchObject({ code: 'VALIDATION_FAILED', column: 'name' });
    const names = await knex()('groups').where({ organization_id: admin.organizationId }).pluck('name');
    expect(names).toEqual(expect.arrayContaining(['first', 'last']));
    expect(names).not.toContain('half');
    // The rows' log entries come after the last row, without the failed row's, and before the import's own.
    const logged = await knex()('operation_logs').where({ organization_id: admin.organizationId }).orderBy('id');
    expect(logged.slice(-3).map((row) => [row.action, row.details.name])).toEqual([
      ['test.row', 'first'],
      ['test.row', 'last'],
      ['batch.groups_imported', undefined],
    ]);
    expect(await app.service.deps.oplog.verify(knex(), admin.organizationId)).toMatchObject({ firstBadId: null });
  });

  it('rejects a login ID that appears twice in the file with BATCH_DUPLICATE_IN_FILE on the later row', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, '営業部');
    const twice = uniqueLoginId('twice');
    const result = await importCsv(
      admin.token,
      'users',
      csv(HEADER, userLine(twice, '営業部'), userLine(twice, '営業部')),
    );
    expect(result.attributes.counts).toMatchObject({ added: 1, failed: 1 });
    expect(result.attributes.rows[1]).toMatchObject({ line: 3, outcome: 'failed' });
    expect(result.attributes.rows[1].errors[0]).toMatchObject({
      code: 'BATCH_DUPLICATE_IN_FILE',
      column: 'loginId',
      messages: { en: 'The same value also appears on line 2 of the file.' },
    });
    expect(await usersNamed(admin.organizationId, [twice])).toHaveLength(1);
  });

  it('reports the service rules per row with the column at fault (user ID taken, invalid e-mail, no group)', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, '営業部');
    const fresh = uniqueLoginId('fresh');
    const result = await importCsv(
      admin.token,
      'users',
      csv(
        HEADER,
        userLine(admin.loginId, '営業部'),
        `add,${fresh},名前,not-an-address,営業部`,
        `add,${uniqueLoginId('nogroup')},名前,x@example.com,`,
      ),
    );
    const codes = result.attributes.rows.map((r: any) => r.errors.map((e: any) => `${e.code}@${e.column}`));
    expect(codes).toEqual([['LOGIN_ID_TAKEN@loginId'], ['EMAIL_INVALID@email'], ['USER_GROUP_REQUIRED@groups']]);
    expect(await usersNamed(admin.organizationId, [fresh])).toEqual([]);
  });

  it('updates only the columns the header names and deletes users; an unknown user ID is NOT_FOUND', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, '営業部');
    await createGroup(app, admin.token, '開発部');
    const [keep, gone] = [uniqueLoginId('keep'), uniqueLoginId('gone')];
    await importCsv(admin.token, 'users', csv(HEADER, userLine(keep, '営業部'), userLine(gone, '営業部')));
    const before = await usersNamed(admin.organizationId, [keep]).first();
    const result = await importCsv(
      admin.token,
      'users',
      csv(
        'operation,loginId,groups,isAdmin',
        `update,${keep},営業部;開発部,true`,
        `delete,${gone},,`,
        `update,nobody-here,,`,
      ),
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.attributes.rows.map((r: any) => r.outcome)).toEqual(['updated', 'deleted', 'failed']);
    expect(result.attributes.rows[2].errors[0]).toMatchObject({ code: 'NOT_FOUND', column: 'loginId' });
    const after = await usersNamed(admin.organizationId, [keep]).first();
    expect(after).toMatchObject({
      name: before.name,
      email: before.email,
      is_admin: true,
      lock_version: before.lock_version + 1,
    });
    expect(await knex()('group_members').where({ user_id: after.id })).toHaveLength(2);
    expect(await usersNamed(admin.organizationId, [gone])).toEqual([]);
    expect(await logsOf(admin.organizationId, 'user.deleted')).toHaveLength(1);
  });

  // PostgreSQL only: the embedded PGlite has one connection, so its transactions never overlap.
  it.runIf(inject('dbKind') === 'postgres')(
    'never holds the log while it waits for a user another writer has locked: it logs after its last row',
    async () => {
      // Every writer locks its rows and then logs. An import that held the organization's log lock while it locked
      // users deadlocked with a writer that had locked one of them and was about to log (an invitation job, say).
      const admin = await adminSession(app);
      const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
      let imported: ReturnType<typeof importCsv> | undefined;
      await asWriterAboutToLog(
        admin.organizationId,
        (writer) => writer('users').where({ id: member.id }).update({ name: '別の更新' }),
        () => {
          imported = importCsv(admin.token, 'users', csv('operation,loginId,isAdmin', `update,${member.loginId},true`));
        },
      );
      const result = await imported!;
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.attributes.rows.map((r: any) => r.outcome)).toEqual(['updated']);
      expect(await logsOf(admin.organizationId, 'user.updated')).toHaveLength(1);
    },
  );

  it.runIf(inject('dbKind') === 'postgres')(
    'the invitation job, like every writer, locks its rows before it takes the log',
    async () => {
      // A writer holding one of the user's sessions (a sign-out, say) and about to log: the job, which revokes the
      // user's sessions, waits for that row without holding the log.
      const admin = await adminSession(app);
      const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
      await asWriterAboutToLog(
        admin.organizationId,
        async (writer) => {
          const held = await writer('auth_sessions').where({ user_id: member.id }).whereNull('revoked_at').forUpdate();
          expect(held.length).toBeGreaterThan(0);
        },
        () => knex().transaction((trx) => queueInvitation(app.service.deps, trx, member.id, null)),
      );
      await expect
        .poll(async () => (await knex()('users').where({ id: member.id }).first('invitation_id')).invitation_id, {
          timeout: 30_000,
        })
        .toBeNull();
    },
  );

  it.runIf(inject('dbKind') === 'postgres')(
    'an invitation waits for the import running in its organization, with its user free',
    async () => {
      // Invitations queued by an earlier chunk of a file must not take the CPU the next chunk needs.
      const admin = await adminSession(app);
      const member = await activeMember(app, admin.token, [admin.defaultGroupId]);
      const importing = await knex().transaction();
      try {
        await lockImports(importing, admin.organizationId, 'import');
        await knex().transaction((trx) => queueInvitation(app.service.deps, trx, member.id, null));
        await expect.poll(waitingForAdvisoryLocks, { timeout: 30_000 }).toBeGreaterThan(0);
        await importing('users').where({ id: member.id }).update({ name: '取込で更新' });
        expect((await knex()('users').where({ id: member.id }).first('invitation_id')).invitation_id).not.toBeNull();
      } finally {
        await importing.rollback();
      }
      await expect
        .poll(async () => (await knex()('users').where({ id: member.id }).first('invitation_id')).invitation_id, {
          timeout: 30_000,
        })
        .toBeNull();
    },
  );

  it('cannot delete yourself through the file (USER_IS_SELF)', async () => {
    const admin = await adminSession(app);
    const result = await importCsv(admin.token, 'users', csv('operation,loginId', `delete,${admin.loginId}`));
    expect(result.attributes.rows[0].errors[0]).toMatchObject({ code: 'USER_IS_SELF', column: null });
    expect(await usersNamed(admin.organizationId, [admin.loginId])).toHaveLength(1);
  });

  it("never reads or changes another organization's users, groups or roles", async () => {
    const mine = await adminSession(app);
    const theirs = await adminSession(app);
    await createGroup(app, theirs.token, '他社の部');
    const result = await importCsv(
      mine.token,
      'users',
      csv(HEADER, userLine(uniqueLoginId('x'), '他社の部'), userLine(theirs.loginId, '', 'delete')),
    );
    expect(result.attributes.rows.map((r: any) => r.errors[0].code)).toEqual(['BATCH_UNKNOWN_GROUP', 'NOT_FOUND']);
    expect(await usersNamed(theirs.organizationId, [theirs.loginId])).toHaveLength(1);
    const exported = await exportCsv(mine.token, 'users');
    expect(exported.text).toContain(mine.loginId);
    expect(exported.text).not.toContain(theirs.loginId);
  });
});

describe('CSV files refused as a whole', () => {
  it('refuses a bad header (unknown, repeated or missing required column) with BATCH_CSV_HEADER_INVALID', async () => {
    const admin = await adminSession(app);
    for (const [header, column] of [
      ['operation,loginId,shoeSize', 'shoeSize'],
      ['operation,loginId,name,Name', 'Name'],
      ['operation,name,email', 'loginId'],
    ]) {
      const result = await importCsv(admin.token, 'users', csv(header!, 'add,a,b'));
      expect(result.status).toBe(422);
      expect(result.body.errors[0]).toMatchObject({ code: 'BATCH_CSV_HEADER_INVALID' });
      expect(result.body.errors[0].meta.messages.en).toContain(`(${column})`);
    }
  });

  it('refuses an empty file and a header without rows with BATCH_CSV_EMPTY', async () => {
    const admin = await adminSession(app);
    for (const body of ['', csv(HEADER)]) {
      const result = await importCsv(admin.token, 'users', body);
      expect(result.status).toBe(422);
      expect(result.body.errors[0].code).toBe('BATCH_CSV_EMPTY');
    }
  });

  it('refuses bytes that are neither UTF-8 nor Shift_JIS with BATCH_CSV_ENCODING_INVALID', async () => {
    const admin = await adminSession(app);
    const result = await importCsv(
      admin.token,
      'users',
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00, 0x81]),
    );
    expect(result.status).toBe(422);
    expect(result.body.errors[0].code).toBe('BATCH_CSV_ENCODING_INVALID');
  });

  it('refuses more than 1,000 rows with BATCH_CSV_TOO_MANY_ROWS and writes nothing', async () => {
    const admin = await adminSession(app);
    const lines = Array.from({ length: 1001 }, (_, i) => userLine(`bulk-${process.pid}-${i}`, 'x'));
    const result = await importCsv(admin.token, 'users', csv(HEADER, ...lines));
    expect(result.status).toBe(422);
    expect(result.body.errors[0].code).toBe('BATCH_CSV_TOO_MANY_ROWS');
  });

  it('refuses a body over 10 MB with 413 REQUEST_TOO_LARGE', async () => {
    const admin = await adminSession(app);
    const result = await importCsv(admin.token, 'users', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect(result.status).toBe(413);
    expect(result.body.errors[0].code).toBe('REQUEST_TOO_LARGE');
  });

  it('answers a JSON body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const admin = await adminSession(app);
    const result = await importCsv(admin.token, 'users', JSON.stringify({ csv: HEADER }), {
      contentType: 'application/json',
    });
    expect(result.status).toBe(415);
    expect(result.body.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('encodings', () => {
  it('reads UTF-8 with a BOM and Shift_JIS (Excel in Japan)', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, 'Sales');
    const [utf8, sjis] = [uniqueLoginId('bom'), uniqueLoginId('sjis')];
    const withBom = await importCsv(
      admin.token,
      'users',
      `\uFEFF${csv(HEADER, `add,${utf8},山田太郎,${utf8}@example.com,Sales`)}`,
    );
    expect(withBom.attributes.counts.added).toBe(1);
    // "山田太郎" in Shift_JIS.
    const name = [0x8e, 0x52, 0x93, 0x63, 0x91, 0xbe, 0x98, 0x59];
    const bytes = Buffer.concat([
      Buffer.from(`${HEADER}\r\nadd,${sjis},`),
      Buffer.from(name),
      Buffer.from(`,${sjis}@example.com,Sales\r\n`),
    ]);
    const shiftJis = await importCsv(admin.token, 'users', bytes);
    expect(shiftJis.attributes.counts.added).toBe(1);
    const names = await usersNamed(admin.organizationId, [utf8, sjis]).pluck('name');
    expect(names).toEqual(['山田太郎', '山田太郎']);
  });
});

describe('users CSV export', () => {
  it('an export imports back as a no-op (round trip)', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, '営業部', 'G-1');
    await createGroup(app, admin.token, '=危険な名前');
    const role = await app.api.call('createRole', {
      token: admin.token,
      body: { data: { type: 'Role', attributes: { name: '承認者', systemLinkId: 'R-1', taskPermissions: NO_TASKS } } },
    });
    expect(role.status).toBe(201);
    const loginId = uniqueLoginId('round');
    const full = 'operation,loginId,name,email,subEmails,mobilePhone,locale,isAdmin,systemLinkId,groups,roles';
    const imported = await importCsv(
      admin.token,
      'users',
      csv(
        full,
        `add,${loginId},"Doe, ""J""",${loginId}@example.com,a@example.com;b@example.com,09012345678,en,true,EMP-1,営業部;=危険な名前,R-1`,
      ),
    );
    expect(imported.attributes.counts.added).toBe(1);
    const exported = await exportCsv(admin.token, 'users');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="users-\d{8}\.csv"$/);
    expect(exported.text.startsWith(`\uFEFF${full}\r\n`)).toBe(true);
    expect(exported.text).toContain(
      `update,${loginId},"Doe, ""J""",${loginId}@example.com,a@example.com;b@example.com,09012345678,en,true,EMP-1,'=危険な名前;営業部,承認者`,
    );
    const versions = await knex()('users')
      .where({ organization_id: admin.organizationId })
      .orderBy('id')
      .pluck('lock_version');
    const again = await importCsv(admin.token, 'users', Buffer.from(exported.text));
    expect(again.attributes.counts).toMatchObject({ total: 2, unchanged: 2, added: 0, updated: 0, failed: 0 });
    expect(
      await knex()('users').where({ organization_id: admin.organizationId }).orderBy('id').pluck('lock_version'),
    ).toEqual(versions);
    expect(await logsOf(admin.organizationId, 'user.updated')).toEqual([]);
  });

  it('refuses an export of more than 1,000 users with CSV_EXPORT_LIMIT_EXCEEDED and allows it once narrowed', async () => {
    const admin = await adminSession(app);
    // 1,001 more users (set up directly: this rule is about the export, not about creating users).
    await knex()('users').insert(
      Array.from({ length: 1001 }, (_, i) => ({
        organization_id: admin.organizationId,
        login_id: `many-${admin.organizationId.slice(0, 8)}-${String(i).padStart(4, '0')}`,
        name: `Many ${i}`,
        email: `many${i}@example.com`,
        password_hash: 'unused',
      })),
    );
    const refused = await exportCsv(admin.token, 'users');
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: 'CSV_EXPORT_LIMIT_EXCEEDED' });
    expect(refused.body.errors[0].meta.messages.en).toBe(
      'CSV export is limited to 1000 items (1002 match). Narrow the search.',
    );
    const narrowed = await exportCsv(admin.token, 'users', { 'filter[q]': 'many-' });
    expect(narrowed.status).toBe(422);
    const page = await exportCsv(admin.token, 'users', { 'filter[q]': `many-${admin.organizationId.slice(0, 8)}-0` });
    expect(page.status).toBe(200);
    expect(page.text.trimEnd().split('\r\n')).toHaveLength(1 + 1000);
  });
});

describe('groups CSV', () => {
  it('adds, renames and deletes groups; a delete that would leave a user without a group fails alone', async () => {
    const admin = await adminSession(app);
    await createGroup(app, admin.token, '旧名');
    await createGroup(app, admin.token, '消す部');
    const defaultGroup = await knex()('groups').where({ id: admin.defaultGroupId }).first('name');
    // Sign-up's first workspace uses the first group (GROUP_IN_USE); without it the rule under test answers.
    await knex()('workspace_participants').where({ group_id: admin.defaultGroupId }).delete();
    const result = await importCsv(
      admin.token,
      'groups',
      csv(
        'operation,name,newName,systemLinkId',
        'update,旧名,新名,',
        'delete,消す部,,',
        'add,新しい部,,G-NEW',
        `delete,${defaultGroup.name},,`,
      ),
    );
    expect(result.attributes.rows.map((r: any) => r.outcome)).toEqual(['updated', 'deleted', 'added', 'failed']);
    expect(result.attributes.rows[3].errors[0].code).toBe('GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP');
    const names = await knex()('groups').where({ organization_id: admin.organizationId }).orderBy('name').pluck('name');
    expect(names.sort()).toEqual([defaultGroup.name, '新しい部', '新名'].sort());
    const exported = await exportCsv(admin.token, 'groups');
    expect(exported.text).toContain('update,新しい部,,G-NEW\r\n');
    const again = await importCsv(admin.token, 'groups', Buffer.from(exported.text));
    expect(again.attributes.counts).toMatchObject({ total: 3, unchanged: 3 });
    expect(await logsOf(admin.organizationId, 'batch.groups_imported')).toHaveLength(2);
  });
});
