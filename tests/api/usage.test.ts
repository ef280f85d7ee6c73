import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUsage, tokyoMonth, type UsageMetric } from '../../core/modules/usage/counters.ts';
import { memberToken, signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

/** Counts usage the way features do: inside a transaction of their own. */
function record(organizationId: string, metric: UsageMetric, amount: number, at: Date) {
  return app.service.deps.knex.transaction((trx) => recordUsage(trx, organizationId, metric, amount, at));
}

function usage(token: string, query?: Record<string, string>) {
  return app.api.call('getUsage', { token, query });
}

describe('usage details', () => {
  it('adds up concurrent increments of the same counter without losing any', async () => {
    const org = await signedInOwner(app);
    const at = new Date('2026-05-10T03:00:00Z');
    await Promise.all(Array.from({ length: 20 }, (_, i) => record(org.organizationId, 'signatures', (i % 3) + 1, at)));
    const rows = await app.service.deps.knex('usage_counters').where({ organization_id: org.organizationId });
    expect(rows).toHaveLength(1);
    // 20 calls adding 1, 2, 3, 1, 2, 3 ... = 7 × 1 + 7 × 2 + 6 × 3
    expect(Number(rows[0].count)).toBe(39);
    const response = await usage(org.token, { from: '2026-05', to: '2026-05' });
    expect(response.body.data[0].attributes.signatures).toBe(39);
  });

  it('counts by the month in Asia/Tokyo: 2026-11-30T16:00Z is December, 14:59Z is still November', async () => {
    const org = await signedInOwner(app);
    expect(tokyoMonth(new Date('2026-11-30T16:00:00Z'))).toBe('2026-12');
    await record(org.organizationId, 'documents', 1, new Date('2026-11-30T14:59:59.999Z'));
    await record(org.organizationId, 'documents', 1, new Date('2026-11-30T15:00:00Z'));
    await record(org.organizationId, 'documents', 1, new Date('2026-11-30T16:00:00Z'));
    await record(org.organizationId, 'ocrPages', 5, new Date('2026-12-31T15:00:00Z')); // 2027-01-01 00:00 JST
    const response = await usage(org.token, { from: '2026-11', to: '2027-01' });
    expect(response.status).toBe(200);
    expect(
      response.body.data.map((m: { id: string; attributes: { documents: number; ocrPages: number } }) => [
        m.id,
        m.attributes.documents,
        m.attributes.ocrPages,
      ]),
    ).toEqual([
      ['2026-11', 1, 0],
      ['2026-12', 2, 0],
      ['2027-01', 0, 5],
    ]);
    expect(response.body.meta).toMatchObject({ timeZone: 'Asia/Tokyo', totals: { documents: 3, ocrPages: 5 } });
  });

  it('answers the last 12 months by default, months with nothing as zeros, with totals and the plan', async () => {
    const org = await signedInOwner(app);
    const current = tokyoMonth(app.clock.now());
    await record(org.organizationId, 'oneTimeUsers', 2, app.clock.now());
    const response = await usage(org.token);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(12);
    expect(response.body.meta).toMatchObject({ to: current, plan: 'free' });
    expect(response.body.data.at(-1)).toEqual({
      type: 'UsageMonth',
      id: current,
      attributes: {
        month: current,
        documents: 0,
        signatures: 0,
        signaturesByType: {},
        timestamps: 0,
        oneTimeUsers: 2,
        ocrPages: 0,
      },
    });
    for (const month of response.body.data.slice(0, 11)) {
      expect(month.attributes).toMatchObject({ documents: 0, signatures: 0, oneTimeUsers: 0, ocrPages: 0 });
    }
    expect(response.body.meta.totals).toEqual({
      documents: 0,
      signatures: 0,
      signaturesByType: {},
      timestamps: 0,
      oneTimeUsers: 2,
      ocrPages: 0,
    });
    // Twelve consecutive months ending with the current one.
    expect(response.body.data[0].id).toBe(response.body.meta.from);
  });

  it('rejects a range that runs backwards or is longer than 60 months with 422 USAGE_RANGE_INVALID', async () => {
    const org = await signedInOwner(app);
    const backwards = await usage(org.token, { from: '2026-05', to: '2026-04' });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors[0]).toMatchObject({ code: 'USAGE_RANGE_INVALID', source: { pointer: '/from' } });
    const tooLong = await usage(org.token, { from: '2020-01', to: '2025-01' });
    expect(tooLong.body.errors[0]).toMatchObject({ code: 'USAGE_RANGE_INVALID', source: { pointer: '/to' } });
    expect((await usage(org.token, { from: '2020-01', to: '2024-12' })).body.data).toHaveLength(60);
    const malformed = await usage(org.token, { from: '2026-13' });
    expect(malformed.body.errors[0]).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses usage details to a user who is not an administrator with 403 FUNCTION_NOT_PERMITTED', async () => {
    const org = await signedInOwner(app);
    const response = await usage(await memberToken(app, org.organizationId));
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
  });

  it("never counts or shows another organization's usage", async () => {
    const a = await signedInOwner(app);
    const b = await signedInOwner(app);
    const at = new Date('2026-03-15T00:00:00Z');
    await record(a.organizationId, 'documents', 7, at);
    await record(b.organizationId, 'documents', 1, at);
    const forA = await usage(a.token, { from: '2026-03', to: '2026-03' });
    const forB = await usage(b.token, { from: '2026-03', to: '2026-03' });
    expect(forA.body.data[0].attributes.documents).toBe(7);
    expect(forB.body.data[0].attributes.documents).toBe(1);
    expect(forB.body.meta.totals.documents).toBe(1);
  });
});
