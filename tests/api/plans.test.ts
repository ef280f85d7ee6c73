/*
 * Plans as data and their administration: the public catalogue (config/plans.json), the owner's change requests,
 * and the service operator's changes over the operator token, from the API and from `keiyaku plans` / `keiyaku orgs`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../../core/access/plans.ts';
import { memberToken, signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { runCli } from '../helpers/cli.ts';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ env: { KEIYAKU_OPERATOR_TOKEN: OPERATOR_TOKEN } });
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const request = (token: string, plan: string, options: string[], comment?: string) =>
  app.api.call('requestPlanChange', {
    token,
    body: { data: { type: 'PlanChangeRequest', attributes: { plan, options, ...(comment ? { comment } : {}) } } },
  });
const setPlan = (organization: string, plan: string, headers: Record<string, string> = operator) =>
  app.api.call('setOrganizationPlan', {
    headers,
    params: { organization },
    body: { data: { type: 'OrganizationPlan', attributes: { plan } } },
  });
const logsOf = (organizationId: string, action: string) =>
  knex()('operation_logs').where({ organization_id: organizationId, action }).orderBy('id');
const codeOf = async (organizationId: string) =>
  (await knex()('organizations').where({ id: organizationId }).first('code')).code as string;

describe('the plan catalogue', () => {
  it('answers every plan and option from config/plans.json without signing in', async () => {
    const file = JSON.parse(readFileSync(new URL('../../config/plans.json', import.meta.url), 'utf8'));
    const response = await app.api.call('listPlans', {});
    expect(response.status).toBe(200);
    expect(response.body.data.map((p: { id: string }) => p.id)).toEqual(['free', 'standard', 'professional']);
    for (const plan of response.body.data) {
      expect(plan.attributes).toEqual(file.plans[plan.id]);
    }
    expect(response.body.meta).toMatchObject({ currency: 'JPY', consumptionTaxPercent: 10 });
    expect(response.body.meta.options).toEqual([{ option: 'aiOcr', ...file.options.aiOcr }]);
    // The gates read the same data: the standard plan's features and limits are the file's.
    expect(PLAN_LIMITS.standard).toEqual(file.plans.standard.limits);
  });

  it('prints the catalogue with `keiyaku plans list`', async () => {
    const run = await runCli(['plans', 'list', '--url', app.url]);
    expect(run.exitCode, run.err).toBe(0);
    expect(run.out).toContain('standard (Standard / スタンダード): ¥10,000 a month');
    expect(run.out).toContain('option aiOcr (AI-OCR): ¥3,000 a month; ocrPages ¥10');
  });
});

describe("the owner's plan change request", () => {
  it('records a pending request without changing the plan; a newer one supersedes it; both logged', async () => {
    const org = await signedInOwner(app);
    const first = await request(org.token, 'standard', [], '来月から利用したい');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.attributes).toMatchObject({
      plan: 'standard',
      options: [],
      status: 'pending',
      currentPlan: 'free',
      comment: '来月から利用したい',
      requestedBy: { id: org.ownerId },
    });
    const second = await request(org.token, 'professional', ['aiOcr']);
    expect(second.status).toBe(201);
    const list = await app.api.call('listPlanChangeRequests', { token: org.token });
    expect(list.body.data.map((r: any) => [r.attributes.plan, r.attributes.status])).toEqual([
      ['professional', 'pending'],
      ['standard', 'superseded'],
    ]);
    expect((await knex()('organizations').where({ id: org.organizationId }).first()).plan).toBe('free');
    expect(await logsOf(org.organizationId, 'organization.plan_change_requested')).toHaveLength(2);
  });

  it('refuses requests from administrators who are not the owner, and reads them to administrators only', async () => {
    const org = await signedInOwner(app);
    const admin = await memberToken(app, org.organizationId, { is_admin: true });
    const refused = await request(admin, 'standard', []);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    expect((await app.api.call('listPlanChangeRequests', { token: admin })).status).toBe(200);
    const member = await memberToken(app, org.organizationId);
    expect((await app.api.call('listPlanChangeRequests', { token: member })).status).toBe(403);
  });

  it('refuses a request for what the organization has with 422 PLAN_CHANGE_UNCHANGED', async () => {
    const org = await signedInOwner(app);
    const response = await request(org.token, 'free', []);
    expect(response.status).toBe(422);
    expect(response.body.errors[0].code).toBe('PLAN_CHANGE_UNCHANGED');
  });

  it('refuses a plan allowing fewer groups than the organization has with 422 PLAN_GROUP_LIMIT_EXCEEDED', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const existing = Number(
      (await knex()('groups').where({ organization_id: org.organizationId }).count({ n: '*' }))[0]!.n,
    );
    const max = PLAN_LIMITS.free.groups;
    await knex()('groups').insert(
      Array.from({ length: max + 1 - existing }, (_, i) => ({ organization_id: org.organizationId, name: `G${i}` })),
    );
    const response = await request(org.token, 'free', []);
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ code: 'PLAN_GROUP_LIMIT_EXCEEDED' });
    expect(response.body.errors[0].meta.messages.en).toContain(`at most ${max} groups`);
    const operatorChange = await setPlan(org.organizationId, 'free');
    expect(operatorChange.status).toBe(422);
    expect(operatorChange.body.errors[0].code).toBe('PLAN_GROUP_LIMIT_EXCEEDED');
  });

  it('withdraws a pending request once (409 PLAN_CHANGE_REQUEST_CLOSED after); another organization gets 404', async () => {
    const org = await signedInOwner(app);
    const other = await signedInOwner(app);
    const created = await request(org.token, 'standard', []);
    const requestId = created.body.data.id;
    const foreign = await app.api.call('withdrawPlanChangeRequest', { token: other.token, params: { requestId } });
    expect(foreign.status).toBe(404);
    const otherList = await app.api.call('listPlanChangeRequests', { token: other.token });
    expect(otherList.body.data).toEqual([]);
    const withdrawn = await app.api.call('withdrawPlanChangeRequest', { token: org.token, params: { requestId } });
    expect(withdrawn.status).toBe(204);
    const again = await app.api.call('withdrawPlanChangeRequest', { token: org.token, params: { requestId } });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('PLAN_CHANGE_REQUEST_CLOSED');
  });
});

describe("the operator's plan administration", () => {
  it('refuses a missing or wrong operator token with 401', async () => {
    const org = await signedInOwner(app);
    expect((await setPlan(org.organizationId, 'standard', {})).status).toBe(401);
    const wrong = await setPlan(org.organizationId, 'standard', { authorization: 'Bearer not-the-operator-token-000' });
    expect(wrong.status).toBe(401);
    // A member's bearer token is not the operator's.
    expect((await setPlan(org.organizationId, 'standard', { authorization: `Bearer ${org.token}` })).status).toBe(401);
    expect((await knex()('organizations').where({ id: org.organizationId }).first()).plan).toBe('free');
  });

  it('applies a requested plan by organization code: features open, the request applied, the change logged', async () => {
    const org = await signedInOwner(app);
    expect((await app.api.call('listIpRestrictions', { token: org.token })).status).toBe(403);
    const requested = await request(org.token, 'standard', []);
    const response = await setPlan(await codeOf(org.organizationId), 'standard');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ plan: 'standard', options: [], pendingRequest: null });
    expect((await app.api.call('listIpRestrictions', { token: org.token })).status).toBe(200);
    const list = await app.api.call('listPlanChangeRequests', { token: org.token });
    expect(list.body.data[0].attributes).toMatchObject({ status: 'applied' });
    const [log] = await logsOf(org.organizationId, 'organization.plan_changed');
    expect(log.actor_user_id).toBeNull();
    expect(log.details).toEqual({
      by: 'operator',
      before: { plan: 'free', options: [] },
      after: { plan: 'standard', options: [] },
      requestId: requested.body.data.id,
    });
  });

  it('switches options and plans from the command line, listing pending requests', async () => {
    const org = await signedInOwner(app);
    const code = await codeOf(org.organizationId);
    await request(org.token, 'professional', ['aiOcr'], '電子署名を使いたい');
    const env = { KEIYAKU_OPERATOR_TOKEN: OPERATOR_TOKEN };
    const pending = await runCli(['orgs', 'list', '--pending', '--code', code, '--url', app.url], env);
    expect(pending.exitCode, pending.err).toBe(0);
    expect(pending.out).toContain(`${code}\t株式会社テスト\tfree\t-`);
    expect(pending.out).toContain('requested professional + aiOcr');
    const option = await runCli(['orgs', 'set-option', code, 'aiOcr', 'on', '--url', app.url], env);
    expect(option.exitCode, option.err).toBe(0);
    const plan = await runCli(['orgs', 'set-plan', code, 'professional', '--url', app.url], env);
    expect(plan.exitCode, plan.err).toBe(0);
    expect(plan.out).toContain(`${code}\t株式会社テスト\tprofessional\taiOcr`);
    const row = await knex()('organizations').where({ id: org.organizationId }).first();
    expect([row.plan, row.options]).toEqual(['professional', ['aiOcr']]);
    const logs = await logsOf(org.organizationId, 'organization.plan_changed');
    expect(logs.map((l) => l.details.after)).toEqual([
      { plan: 'free', options: ['aiOcr'] },
      { plan: 'professional', options: ['aiOcr'] },
    ]);
    expect(logs[1].details.requestId).not.toBeNull();
    const off = await runCli(['orgs', 'set-option', code, 'aiOcr', 'off', '--url', app.url], env);
    expect(off.exitCode, off.err).toBe(0);
    expect((await knex()('organizations').where({ id: org.organizationId }).first()).options).toEqual([]);
    const noToken = await runCli(['orgs', 'set-plan', code, 'free', '--url', app.url], {
      KEIYAKU_OPERATOR_TOKEN: undefined,
    });
    expect(noToken.exitCode).toBe(3);
    const unknown = await runCli(['orgs', 'set-plan', 'no-such-org', 'free', '--url', app.url], env);
    expect(unknown.exitCode).toBe(1);
  });
});
