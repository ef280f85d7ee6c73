import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planHasFeature } from '../../core/access/plans.ts';
import { loadConfig } from '../../core/config.ts';
import { memberToken, signedInOwner, signUpOrganization } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { CorporateNumberApi } from '../peers/corporate-number-api.ts';

const VALID_NUMBER = '7000012050002';
/** Valid check digits by the formula (9 - weighted sum mod 9) for bodies 000000000001 and 000000000002. */
const OTHER_NUMBER = '8000000000001';
const THIRD_NUMBER = '7000000000002';
const at = (field: string) => `/data/attributes/${field}`;

let app: TestApp;
let peer: CorporateNumberApi;
beforeAll(async () => {
  peer = await CorporateNumberApi.start();
  peer.add({
    corporateNumber: VALID_NUMBER,
    name: '国税庁',
    prefectureName: '東京都',
    cityName: '千代田区',
    streetNumber: '霞が関3丁目1-1',
    enName: 'National Tax Agency',
    updateDate: '2024-04-01',
  });
  app = await startApp({
    env: {
      CORPORATE_NUMBER_API_URL: peer.url,
      CORPORATE_NUMBER_API_APP_ID: 'test-app-id',
      CORPORATE_NUMBER_API_TIMEOUT_MS: '300',
    },
  });
});
afterAll(async () => {
  await app.close();
  await peer.stop();
});

const update = (token: string, attributes: Record<string, unknown>) =>
  app.api.call('updateOrganization', { token, body: { data: { type: 'Organization', attributes } } });
const lookup = (token: string, number: string) => app.api.call('lookupCorporateNumber', { token, query: { number } });
const logsOf = (organizationId: string, action: string) =>
  app.service.deps.knex('operation_logs').where({ organization_id: organizationId, action }).orderBy('id');

describe('organization information', () => {
  it('shows the organization with its owner, plan, options and the plan catalogue', async () => {
    const org = await signedInOwner(app);
    const response = await app.api.call('getOrganization', { token: org.token });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(org.organizationId);
    expect(response.body.data.attributes).toMatchObject({
      name: '株式会社テスト',
      corporateNumber: null,
      notSubjectToCorporateNumber: false,
      address: '',
      plan: 'free',
      options: [],
      owner: { id: org.ownerId, loginId: org.loginId, isCaller: true },
      lockVersion: 0,
    });
    expect(response.body.meta.plans.map((p: { plan: string }) => p.plan)).toEqual(['free', 'standard', 'professional']);
    expect(response.body.meta.options).toEqual(['aiOcr']);
  });

  it('updates name, corporate number and address, logging the change in the operation log', async () => {
    const org = await signedInOwner(app);
    const response = await update(org.token, {
      name: '株式会社サンプル',
      corporateNumber: THIRD_NUMBER,
      address: '東京都千代田区1-1',
      lockVersion: 0,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ name: '株式会社サンプル', lockVersion: 1 });
    const again = await app.api.call('getOrganization', { token: org.token });
    expect(again.body.data.attributes).toMatchObject({
      name: '株式会社サンプル',
      corporateNumber: THIRD_NUMBER,
      address: '東京都千代田区1-1',
      lockVersion: 1,
    });
    const [log] = await logsOf(org.organizationId, 'organization.updated');
    expect(log).toMatchObject({ actor_user_id: org.ownerId, target_type: 'organization' });
    expect(log.details.changes.name).toEqual({ from: '株式会社テスト', to: '株式会社サンプル' });
    expect(log.details.changes.corporate_number).toEqual({ from: null, to: THIRD_NUMBER });
  });

  it('lets every member read the organization but refuses updates to a non-administrator with 403 FUNCTION_NOT_PERMITTED', async () => {
    const org = await signedInOwner(app);
    const member = await memberToken(app, org.organizationId);
    const response = await update(member, { name: '乗っ取り', lockVersion: 0 });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    const view = await app.api.call('getOrganization', { token: member });
    expect(view.status).toBe(200);
    expect(view.body.data.attributes.owner.isCaller).toBe(false);
    const row = await app.service.deps.knex('organizations').where({ id: org.organizationId }).first();
    expect(row).toMatchObject({ name: '株式会社テスト', lock_version: 0 });
  });

  it('rejects a corporate number with a wrong check digit with 422 CORPORATE_NUMBER_INVALID', async () => {
    const org = await signedInOwner(app);
    const response = await update(org.token, { corporateNumber: '1000012050002', lockVersion: 0 });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['CORPORATE_NUMBER_INVALID', at('corporateNumber')],
    ]);
  });

  it('rejects a corporate number another organization registered with 422 CORPORATE_NUMBER_TAKEN', async () => {
    await signUpOrganization(app, { corporateNumber: OTHER_NUMBER });
    const org = await signedInOwner(app);
    const response = await update(org.token, { corporateNumber: OTHER_NUMBER, lockVersion: 0 });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'CORPORATE_NUMBER_TAKEN',
      source: { pointer: at('corporateNumber') },
    });
  });

  it('"not subject to corporate number" clears the number, and cannot be combined with one (422)', async () => {
    const org = await signedInOwner(app);
    expect((await update(org.token, { corporateNumber: '6000000000003', lockVersion: 0 })).status).toBe(200);
    const both = await update(org.token, {
      corporateNumber: VALID_NUMBER,
      notSubjectToCorporateNumber: true,
      lockVersion: 1,
    });
    expect(both.status).toBe(422);
    expect(both.body.errors[0].code).toBe('CORPORATE_NUMBER_INVALID');
    const response = await update(org.token, { notSubjectToCorporateNumber: true, lockVersion: 1 });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ corporateNumber: null, notSubjectToCorporateNumber: true });
  });

  it('rejects a stale lockVersion with 409 UPDATED_BY_ANOTHER_USER and changes nothing', async () => {
    const org = await signedInOwner(app);
    expect((await update(org.token, { name: '一回目', lockVersion: 0 })).status).toBe(200);
    const stale = await update(org.token, { name: '二回目', lockVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    const row = await app.service.deps.knex('organizations').where({ id: org.organizationId }).first();
    expect(row).toMatchObject({ name: '一回目', lock_version: 1 });
    expect(await logsOf(org.organizationId, 'organization.updated')).toHaveLength(1);
  });

  it("changes only the caller's own organization: another organization's data stays as it was", async () => {
    const mine = await signedInOwner(app);
    const theirs = await signedInOwner(app);
    expect((await update(mine.token, { name: '自社', lockVersion: 0 })).status).toBe(200);
    const other = await app.api.call('getOrganization', { token: theirs.token });
    expect(other.body.data).toMatchObject({ id: theirs.organizationId, attributes: { name: '株式会社テスト' } });
  });
});

describe('plan and paid options', () => {
  it('counts a paid option as a plan feature (aiOcr on any plan only with the option)', () => {
    expect(planHasFeature('professional', 'aiOcr')).toBe(false);
    expect(planHasFeature('free', 'aiOcr', ['aiOcr'])).toBe(true);
  });
});

describe('corporate number lookup', () => {
  it('returns the registered name and address of a known number', async () => {
    const org = await signedInOwner(app);
    const response = await lookup(org.token, VALID_NUMBER);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      type: 'CorporateNumberLookup',
      id: VALID_NUMBER,
      attributes: {
        status: 'found',
        name: '国税庁',
        address: '東京都千代田区霞が関3丁目1-1',
        nameEn: 'National Tax Agency',
        updatedOn: '2024-04-01',
      },
    });
    const request = peer.requests.at(-1)!;
    expect(Object.fromEntries(request.searchParams)).toEqual({
      id: 'test-app-id',
      number: VALID_NUMBER,
      type: '02',
      history: '0',
    });
  });

  it('answers a number the service does not know with 404 CORPORATE_INFO_NOT_FOUND', async () => {
    const org = await signedInOwner(app);
    const response = await lookup(org.token, OTHER_NUMBER);
    expect(response.status).toBe(404);
    expect(response.body.errors[0].code).toBe('CORPORATE_INFO_NOT_FOUND');
    expect(response.body.errors[0].meta.messages.en).toBe('Corporate info not found.');
  });

  it('rejects a number with a wrong check digit with 422 CORPORATE_NUMBER_INVALID without asking the service', async () => {
    const org = await signedInOwner(app);
    const before = peer.requests.length;
    const response = await lookup(org.token, '1000012050002');
    expect(response.status).toBe(422);
    expect(response.body.errors[0].code).toBe('CORPORATE_NUMBER_INVALID');
    expect(peer.requests.length).toBe(before);
  });

  it('answers "unavailable" (not an error) when the service fails, and the number can still be saved', async () => {
    const org = await signedInOwner(app);
    peer.mode = 'error';
    try {
      const response = await lookup(org.token, VALID_NUMBER);
      expect(response.status).toBe(200);
      expect(response.body.data.attributes).toMatchObject({ status: 'unavailable', name: null, address: null });
    } finally {
      peer.mode = 'normal';
    }
    const saved = await update(org.token, { corporateNumber: VALID_NUMBER, lockVersion: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body.data.attributes.corporateNumber).toBe(VALID_NUMBER);
  });

  it('answers "unavailable" within the configured timeout when the service is too slow', async () => {
    const org = await signedInOwner(app);
    peer.mode = 'slow';
    try {
      const started = Date.now();
      const response = await lookup(org.token, VALID_NUMBER);
      expect(response.status).toBe(200);
      expect(response.body.data.attributes.status).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      peer.mode = 'normal';
    }
  });

  it('answers "disabled" when no lookup service is configured', async () => {
    const org = await signedInOwner(app);
    const config = app.service.deps.config.corporateNumberApi;
    const url = config.url;
    config.url = null;
    try {
      const response = await lookup(org.token, VALID_NUMBER);
      expect(response.status).toBe(200);
      expect(response.body.data.attributes).toMatchObject({ status: 'disabled', name: null });
    } finally {
      config.url = url;
    }
  });
});

describe('corporate number lookup configuration', () => {
  const base = {
    KEIYAKU_DATA_DIR: '/tmp/keiyaku-config-test',
    KEIYAKU_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
  };

  it('is off without CORPORATE_NUMBER_API_URL and refuses a bad URL or a URL without an application ID', () => {
    expect(loadConfig(base).corporateNumberApi).toEqual({ url: null, appId: '', timeoutMs: 3000 });
    expect(() =>
      loadConfig({ ...base, CORPORATE_NUMBER_API_URL: 'ftp://x', CORPORATE_NUMBER_API_APP_ID: 'a' }),
    ).toThrow(/CORPORATE_NUMBER_API_URL/);
    expect(() => loadConfig({ ...base, CORPORATE_NUMBER_API_URL: 'https://api.houjin-bangou.nta.go.jp/4' })).toThrow(
      /CORPORATE_NUMBER_API_APP_ID/,
    );
    expect(() =>
      loadConfig({
        ...base,
        CORPORATE_NUMBER_API_URL: 'https://api.houjin-bangou.nta.go.jp/4',
        CORPORATE_NUMBER_API_APP_ID: 'a',
        CORPORATE_NUMBER_API_TIMEOUT_MS: '0',
      }),
    ).toThrow(/CORPORATE_NUMBER_API_TIMEOUT_MS/);
  });
});
