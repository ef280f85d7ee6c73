/*
 * The billing plugin on PostgreSQL through the API and its job: the live preview of the current month, the month
 * closed by the job (twice, and by two jobs at once: one invoice), the plan at the month's close, the invoice
 * never changing when usage arrives late (same totals, same PDF and CSV bytes; the table refuses edits), the PDF
 * (Noto Sans JP embedded per pdffonts, signature valid per pdfsig, 登録番号 T… per pdftotext), the CSV, another
 * organization's 404, credit notes by the operator, and the T-number check of the configuration.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tokyoMonth } from '../../core/modules/usage/counters.ts';
import { addMonths, PluginHost } from '../../core/plugins/index.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { memberToken, signedInOwner, signIn } from '../../tests/helpers/accounts.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { runCli } from '../../tests/helpers/cli.ts';
import { pdfsig, tempFile } from '../../tests/helpers/signing.ts';
import { registrationNumberProblem } from './config.ts';
import { CLOSE_MONTH_JOB, billingPlugin, closeJobId } from './index.ts';
import { monthEnd } from './months.ts';

vi.setConfig({ testTimeout: 120_000 });

const OPERATOR_TOKEN = 'operator-token-for-billing-tests-0123456789';
const ISSUER = {
  KEIYAKU_PLUGIN_BILLING_ISSUER_NAME: '契約運営テスト株式会社',
  KEIYAKU_PLUGIN_BILLING_REGISTRATION_NUMBER: 'T7000012050002',
  KEIYAKU_PLUGIN_BILLING_ISSUER_ADDRESS: '東京都千代田区霞が関3-1-1',
  KEIYAKU_PLUGIN_BILLING_PAYMENT_TEXT: '振込先：テスト銀行 本店 普通 1234567',
};

let app: TestApp;
let month: string;
let owner: Awaited<ReturnType<typeof signedInOwner>>;
let stranger: Awaited<ReturnType<typeof signedInOwner>>;

beforeAll(async () => {
  app = await startApp({
    env: { ...ISSUER, KEIYAKU_OPERATOR_TOKEN: OPERATOR_TOKEN },
    plugins: BUILT_IN_PLUGINS.filter((p) => ['billing', 'mail', 'service-signatures'].includes(p.name)),
  });
  month = tokyoMonth(app.clock.now());
  // The plugin's first start recorded this month as billing's start, and that month is never closed: these tests
  // bill a month after it, as a deployment that has billed for a while.
  await startedIn(addMonths(month, -1));
  owner = await signedInOwner(app, { plan: 'standard', organizationName: '=株式会社ビリング' });
  stranger = await signedInOwner(app, { plan: 'professional', organizationName: '株式会社よそ' });
  await app.service.deps
    .knex('organizations')
    .where({ id: owner.organizationId })
    .update({ options: ['aiOcr'], address: '大阪府大阪市北区1-2-3' });
  await count(owner.organizationId, month, {
    documents: 12,
    timestamps: 130,
    oneTimeUsers: 3,
    ocrPages: 40,
    'signatures.party': 4,
    'signatures.operator': 7,
  });
});
afterAll(() => app?.close());

/** Sets the month billing started in (recorded by the plugin's first start). */
async function startedIn(startMonth: string, on: TestApp = app) {
  const updated = await on.service.deps.knex('billing_start').where({ id: 'start' }).update({ month: startMonth });
  expect(updated).toBe(1);
}

/** Sets usage counters of a month as the usage module keeps them. */
async function count(organizationId: string, ofMonth: string, counters: Record<string, number>) {
  const knex = app.service.deps.knex;
  for (const [metric, value] of Object.entries(counters)) {
    await knex('usage_counters')
      .insert({ organization_id: organizationId, month: ofMonth, metric, count: value, updated_at: new Date() })
      .onConflict(['organization_id', 'month', 'metric'])
      .merge({ count: value });
  }
}

async function get(path: string, token: string) {
  const response = await fetch(`${app.url}/core/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Runs the closing job for `ofMonth` `times` times at once and waits until all of them completed. */
async function closeByJob(ofMonth: string, times = 1, on: TestApp = app) {
  const { jobs } = on.service.deps;
  const before = (await jobs.counts(CLOSE_MONTH_JOB)).completed ?? 0;
  await Promise.all(Array.from({ length: times }, () => jobs.send(CLOSE_MONTH_JOB, { month: ofMonth })));
  await vi.waitFor(
    async () => {
      const counts = await jobs.counts(CLOSE_MONTH_JOB);
      if (counts.failed) throw new Error('closing failed');
      expect(counts.completed ?? 0).toBeGreaterThanOrEqual(before + times);
      expect((counts.created ?? 0) + (counts.active ?? 0) + (counts.retry ?? 0)).toBe(0);
    },
    { timeout: 90_000, interval: 250 },
  );
}

const statements = (token: string) => app.api.call('listBillingStatements', { token });

function run(command: string, args: string[], pdf: Uint8Array) {
  const result = spawnSync(
    command,
    [...args, tempFile('statement.pdf', pdf), ...(command === 'pdftotext' ? ['-'] : [])],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

let invoiceId: string;
let firstPdf: Buffer;
let firstCsv: Buffer;

describe('the current month', () => {
  it('is previewed live from the counters with the plan and options: open, no number, tax floored once', async () => {
    const preview = await app.api.call('getBillingPreview', { token: owner.token });
    expect(preview.status).toBe(200);
    expect(preview.body.meta).toEqual({ issuerConfigured: true });
    const a = preview.body.data.attributes;
    expect(preview.body.data.id).toBeNull();
    expect(a).toMatchObject({ status: 'open', kind: 'invoice', month, number: null, plan: 'standard' });
    const amounts = Object.fromEntries(a.lines.map((l: any) => [l.item, [l.billableQuantity, l.amount]]));
    expect(amounts).toEqual({
      baseFee: [1, 10_000],
      documents: [12, 2_400],
      'signatures.operator': [7, 0],
      'signatures.party': [4, 400],
      timestamps: [30, 300], // 100 included
      oneTimeUsers: [3, 150],
      'option.aiOcr': [1, 3_000],
      'aiOcr.ocrPages': [40, 400],
    });
    expect([a.subtotal, a.tax, a.total]).toEqual([16_650, 1_665, 18_315]);
    expect(a.taxTotals).toEqual([{ taxRatePercent: 10, subtotal: 16_650, tax: 1_665 }]);
    expect(a.issuer).toMatchObject({ name: '契約運営テスト株式会社', registrationNumber: 'T7000012050002' });
    expect(a.recipient.name).toBe('=株式会社ビリング');
    // Nothing is closed yet.
    expect((await statements(owner.token)).body.data).toEqual([]);
  });

  it('cannot be closed before it ends: the job closes only ended months', async () => {
    await closeByJob(month);
    const rows = await app.service.deps.knex('billing_statements').count('* as n').first();
    expect(Number(rows?.n)).toBe(0);
    // Every process's timer asks with the month's own job id: the queue keeps one job.
    const { jobs } = app.service.deps;
    const first = await jobs.send(CLOSE_MONTH_JOB, { month: '2020-01' }, { id: closeJobId('2020-01') });
    const second = await jobs.send(CLOSE_MONTH_JOB, { month: '2020-01' }, { id: closeJobId('2020-01') });
    expect([first, second]).toEqual([closeJobId('2020-01'), null]);
  });
});

describe('closing a month', () => {
  it('never closes the month billing started in, nor any before it (their counters are incomplete)', async () => {
    // Into the next month: the month has ended.
    app.clock.advance(monthEnd(month).getTime() - app.clock.now().getTime() + 60_000);
    await startedIn(month);
    await closeByJob(month);
    await closeByJob(addMonths(month, -1));
    expect(Number((await app.service.deps.knex('billing_statements').count('* as n').first())?.n)).toBe(0);
    await startedIn(addMonths(month, -1));
  });

  it('issues one invoice per organization even with two closing jobs at once, with the plan at the close', async () => {
    // Into the next month; then the owner's plan changes (logged) before the job runs: the month stays standard.
    app.clock.advance(monthEnd(month).getTime() - app.clock.now().getTime() + 3_600_000);
    await app.service.deps.knex.transaction(async (trx) => {
      await trx('organizations').where({ id: owner.organizationId }).update({ plan: 'professional' });
      await app.service.deps.oplog.append(trx, null, {
        action: 'organization.plan_changed',
        organizationId: owner.organizationId,
        actorUserId: null,
        targetType: 'organization',
        targetId: owner.organizationId,
        details: { before: { plan: 'standard', options: ['aiOcr'] }, after: { plan: 'professional', options: [] } },
      });
    });
    // Access tokens expire with the days skipped: sign in again.
    owner.token = (await signIn(app, owner.loginId, owner.password)).authorizationToken;
    stranger.token = (await signIn(app, stranger.loginId, stranger.password)).authorizationToken;
    await closeByJob(month, 2);
    const rows = await app.service.deps.knex('billing_statements').where({ month, kind: 'invoice' });
    expect(rows.map((r) => r.organization_id).sort()).toEqual([owner.organizationId, stranger.organizationId].sort());

    const list = await statements(owner.token);
    expect(list.body.data).toHaveLength(1);
    const summary = list.body.data[0];
    expect(summary.attributes).toMatchObject({ kind: 'invoice', status: 'closed', month, total: 18_315 });
    expect(summary.attributes.number).toMatch(/^INV-\d{6}-\d{6}$/);
    invoiceId = summary.id;

    const one = await app.api.call('getBillingStatement', { token: owner.token, params: { statementId: invoiceId } });
    expect(one.body.data.attributes).toMatchObject({
      plan: 'standard',
      options: ['aiOcr'],
      subtotal: 16_650,
      tax: 1_665,
      total: 18_315,
      periodStart: `${month}-01`,
      paymentText: ISSUER.KEIYAKU_PLUGIN_BILLING_PAYMENT_TEXT,
    });
    expect(one.body.data.attributes.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes a signed Japanese PDF: the font embedded (pdffonts), the signature valid (pdfsig), 登録番号 T… (pdftotext)', async () => {
    const pdf = await get(`/billing/statements/${invoiceId}/pdf`, owner.token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="INV-\d{6}-\d{6}\.pdf"$/);
    firstPdf = pdf.bytes;
    if (process.env.KEIYAKU_BILLING_PDF_OUT)
      (await import('node:fs')).writeFileSync(process.env.KEIYAKU_BILLING_PDF_OUT, pdf.bytes);

    const fonts = run('pdffonts', [], pdf.bytes)
      .split('\n')
      .filter((line) => line.includes('NotoSansJP'));
    expect(fonts.length).toBeGreaterThan(0);
    // Columns: name type encoding emb sub uni object ID.
    for (const line of fonts) expect(line).toMatch(/\s(CID TrueType|TrueType).*\syes\s+(yes|no)\s+yes\s/);

    const checked = pdfsig(pdf.bytes);
    expect(checked.validations).toEqual(['Signature is Valid.']);

    const text = run('pdftotext', ['-layout'], pdf.bytes);
    expect(text).toContain('請求書');
    expect(text).toContain('登録番号：T7000012050002');
    expect(text).toContain('契約運営テスト株式会社');
    expect(text).toContain('=株式会社ビリング 御中');
    expect(text).toContain('¥18,315');
    expect(text).toContain('消費税（10%）');
  });

  it('makes a CSV: BOM, one line per item, the totals, text guarded against formulas', async () => {
    const csv = await get(`/billing/statements/${invoiceId}/csv`, owner.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    firstCsv = csv.bytes;
    const text = csv.bytes.toString('utf8');
    expect(text.startsWith('\uFEFF請求書番号,項目,数量,基本料金に含む数量,請求数量,単価,金額,税率\r\n')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 8 + 3);
    const number = lines[1]!.split(',')[0];
    expect(lines).toContain(`${number},基本料金,1,0,1,10000,10000,10%`);
    expect(lines).toContain(`${number},タイムスタンプ,130,100,30,10,300,10%`);
    expect(lines.slice(-3)).toEqual([
      `${number},10%対象 小計（税抜）,,,,,16650,10%`,
      `${number},消費税（10%）,,,,,1665,10%`,
      `${number},合計（税込）,,,,,18315,`,
    ]);
  });

  it('never changes: late usage and closing again leave the same totals and the same bytes; edits are refused', async () => {
    await count(owner.organizationId, month, { documents: 500, 'signatures.party': 90 });
    await closeByJob(month);
    const again = await app.api.call('getBillingStatement', { token: owner.token, params: { statementId: invoiceId } });
    expect(again.body.data.attributes.total).toBe(18_315);
    const pdf = await get(`/billing/statements/${invoiceId}/pdf`, owner.token);
    const csv = await get(`/billing/statements/${invoiceId}/csv`, owner.token);
    expect(sha256(pdf.bytes)).toBe(sha256(firstPdf));
    expect(sha256(pdf.bytes)).toBe(again.body.data.attributes.pdfSha256);
    expect(csv.bytes.equals(firstCsv)).toBe(true);

    const knex = app.service.deps.knex;
    await expect(knex('billing_statements').where({ id: invoiceId }).update({ total: 1 })).rejects.toThrow(
      /never change/,
    );
    await expect(knex('billing_statements').where({ id: invoiceId }).delete()).rejects.toThrow(/never deleted/);
  });

  it('hides statements from another organization (404) and from members who are not administrators (403)', async () => {
    const statementId = invoiceId;
    expect((await app.api.call('getBillingStatement', { token: stranger.token, params: { statementId } })).status).toBe(
      404,
    );
    expect((await get(`/billing/statements/${statementId}/pdf`, stranger.token)).status).toBe(404);
    expect((await get(`/billing/statements/${statementId}/csv`, stranger.token)).status).toBe(404);
    const theirs = (await statements(stranger.token)).body.data;
    expect(theirs.map((s: any) => s.id)).not.toContain(statementId);
    const member = await memberToken(app, owner.organizationId);
    expect((await statements(member)).status).toBe(403);
    expect((await app.api.call('getBillingPreview', { token: member })).status).toBe(403);
  });
});

describe('credit notes', () => {
  const issue = (attributes: Record<string, unknown>, token: string | null = OPERATOR_TOKEN) =>
    app.api.call('issueBillingCreditNote', {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: { data: { type: 'BillingCreditNote', attributes } },
    });

  it('are issued by the operator against an invoice, with negative amounts, and listed with their original', async () => {
    const invoice = (
      await app.api.call('getBillingStatement', { token: owner.token, params: { statementId: invoiceId } })
    ).body.data.attributes;
    expect((await issue({ invoiceNumber: invoice.number, reason: '誤請求' }, null)).status).toBe(401);
    expect(
      (await issue({ invoiceNumber: invoice.number, reason: '誤請求' }, 'wrong-token-wrong-token-wrong')).status,
    ).toBe(401);
    expect((await issue({ invoiceNumber: 'INV-000000-999999', reason: '誤請求' })).status).toBe(404);

    const partial = await issue({ invoiceNumber: invoice.number, reason: 'タイムスタンプ料金の調整', amount: 301 });
    expect(partial.status).toBe(201);
    expect(partial.body.data.attributes).toMatchObject({
      kind: 'creditNote',
      status: 'closed',
      originalId: invoiceId,
      originalNumber: invoice.number,
      subtotal: -301,
      tax: -30,
      total: -331,
      reason: 'タイムスタンプ料金の調整',
    });
    expect(partial.body.data.attributes.number).toMatch(/^CN-\d{6}-\d{6}$/);
    // More than what is left to give back is refused.
    const tooMuch = await issue({ invoiceNumber: invoice.number, reason: '全額返還' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors[0].code).toBe('BILLING_CREDIT_EXCEEDS_INVOICE');

    const pdf = await get(`/billing/statements/${partial.body.data.id}/pdf`, owner.token);
    expect(pdfsig(pdf.bytes).validations).toEqual(['Signature is Valid.']);
    const text = run('pdftotext', ['-layout'], pdf.bytes);
    expect(text).toContain('返還請求書');
    expect(text).toContain(invoice.number);
    expect(text).toContain('-¥331');

    const original = await app.api.call('getBillingStatement', {
      token: owner.token,
      params: { statementId: invoiceId },
    });
    expect(original.body.data.attributes.creditNotes).toEqual([
      { id: partial.body.data.id, number: partial.body.data.attributes.number, total: -331 },
    ]);
    expect(original.body.data.attributes.total).toBe(18_315);
    const list = (await statements(owner.token)).body.data.map((s: any) => [s.attributes.kind, s.id]);
    expect(list).toEqual([
      ['invoice', invoiceId],
      ['creditNote', partial.body.data.id],
    ]);
    expect(
      (
        await app.api.call('getBillingStatement', {
          token: stranger.token,
          params: { statementId: partial.body.data.id },
        })
      ).status,
    ).toBe(404);
  });
});

describe('credit notes retried with the same requestId', () => {
  it('answer the credit note already issued for it: one per invoice and request id', async () => {
    const invoice = await app.service.deps.knex('billing_statements').where({ id: invoiceId }).first('number');
    const send = (requestId: string) =>
      app.api.call('issueBillingCreditNote', {
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
        body: {
          data: {
            type: 'BillingCreditNote',
            attributes: { invoiceNumber: invoice.number, reason: '再送の確認', amount: 7, requestId },
          },
        },
      });
    const [first, retry] = await Promise.all([send('retry-after-timeout-1'), send('retry-after-timeout-1')]);
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(retry.body.data.attributes.number).toBe(first.body.data.attributes.number);
    const again = await send('retry-after-timeout-1');
    expect(again.body.data.id).toBe(first.body.data.id);
    const rows = await app.service.deps.knex('billing_statements').where({ request_id: 'retry-after-timeout-1' });
    expect(rows).toHaveLength(1);
    // Another request id is another credit note.
    const other = await send('retry-after-timeout-2');
    expect(other.status).toBe(201);
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect((await send('short')).status).toBe(422);
  });
});

describe('keiyaku billing credit-note', () => {
  it('issues a credit note with the operator token, and says what is missing without it', async () => {
    const invoice = await app.service.deps.knex('billing_statements').where({ id: invoiceId }).first('number');
    const env = { KEIYAKU_URL: app.url, KEIYAKU_LANG: 'en' };
    const refused = await runCli(['billing', 'credit-note', invoice.number, '--reason', '値引き'], {
      ...env,
      KEIYAKU_OPERATOR_TOKEN: undefined,
    });
    expect(refused.exitCode).toBe(3);
    expect(refused.err).toMatch(/KEIYAKU_OPERATOR_TOKEN/);
    const issued = await runCli(['billing', 'credit-note', invoice.number, '--reason', '値引き', '--amount', '1000'], {
      ...env,
      KEIYAKU_OPERATOR_TOKEN: OPERATOR_TOKEN,
    });
    expect(issued.exitCode).toBe(0);
    expect(issued.out).toMatch(
      new RegExp(
        `^CN-\\d{6}-\\d{6}\\t\\d{4}-\\d{2}-\\d{2}\\t${invoice.number}\\tsubtotal -1000\\ttax -100\\ttotal -1100\\n$`,
      ),
    );
    // Each invocation prints its request id first; --request-id retries it: the same credit note, not a second.
    const requestId = /^request id (\S+)\n$/.exec(issued.err)?.[1];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const retried = await runCli(
      ['billing', 'credit-note', invoice.number, '--reason', '値引き', '--amount', '1000', '--request-id', requestId!],
      { ...env, KEIYAKU_OPERATOR_TOKEN: OPERATOR_TOKEN },
    );
    expect(retried.exitCode).toBe(0);
    expect(retried.out).toBe(issued.out);
    expect(await app.service.deps.knex('billing_statements').where({ request_id: requestId! })).toHaveLength(1);
  });
});

describe('the registration number (T + 13 digits with the corporate number check digit)', () => {
  it('accepts a valid one and names what is wrong with the others', () => {
    expect(registrationNumberProblem('T7000012050002')).toBeNull();
    expect(registrationNumberProblem('T8000012050002')).toMatch(/check digit/);
    expect(registrationNumberProblem('T700001205000')).toMatch(/13 digits/);
    expect(registrationNumberProblem('7000012050002')).toMatch(/13 digits/);
  });

  it('stops the start with a clear message when configured wrong', async () => {
    const deps = app.service.deps;
    const host = (number: string) =>
      new PluginHost([billingPlugin as never], {
        ...deps,
        config: { ...deps.config, disabledPlugins: [], pluginConfig: { billing: { REGISTRATION_NUMBER: number } } },
      });
    await expect(host('T8000012050002').load()).rejects.toThrow(
      /plugin billing: invalid configuration: KEIYAKU_PLUGIN_BILLING_REGISTRATION_NUMBER has a wrong check digit/,
    );
    await expect(host('T12345').load()).rejects.toThrow(/must be T followed by 13 digits/);
  });
});

describe('with the example issuer (the embedded default, no issuer configured)', () => {
  it('closes nothing, and the preview works and says the issuer is not set up', async () => {
    const example = await startApp({
      plugins: BUILT_IN_PLUGINS.filter((p) => ['billing', 'mail', 'service-signatures'].includes(p.name)),
    });
    try {
      const thisMonth = tokyoMonth(example.clock.now());
      await startedIn(addMonths(thisMonth, -1), example);
      const someone = await signedInOwner(example, { plan: 'standard', organizationName: '株式会社例示' });
      const preview = await example.api.call('getBillingPreview', { token: someone.token });
      expect(preview.status).toBe(200);
      expect(preview.body.meta).toEqual({ issuerConfigured: false });
      expect(preview.body.data.attributes.issuer.registrationNumber).toBe('T7123456789012');

      example.clock.advance(monthEnd(thisMonth).getTime() - example.clock.now().getTime() + 60_000);
      await closeByJob(thisMonth, 1, example);
      expect(Number((await example.service.deps.knex('billing_statements').count('* as n').first())?.n)).toBe(0);
    } finally {
      await example.close();
    }
  });
});
