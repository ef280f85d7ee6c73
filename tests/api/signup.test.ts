import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../core/http/errors.ts';
import { currentTermsId, PASSWORD, signIn, signUpOrganization, uniqueLoginId } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';

const VALID_CORPORATE_NUMBER = '7000012050002';
const at = (field: string) => `/data/attributes/${field}`;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

/** A complete, valid sign-up body for a new login ID, with overrides. */
async function signUpAttributes(overrides: Record<string, unknown> = {}) {
  const loginId = uniqueLoginId('signup');
  return {
    organizationName: '株式会社サインアップ',
    loginId,
    userName: '鈴木 一郎',
    email: `${loginId}@example.com`,
    password: PASSWORD,
    passwordConfirmation: PASSWORD,
    acceptTermId: await currentTermsId(app),
    ...overrides,
  };
}

async function signUp(overrides: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const attributes = await signUpAttributes(overrides);
  return app.api.call('signUp', { body: { data: { type: 'SignUp', attributes } }, headers });
}

/** The [code, pointer] pairs of an error response, in order. */
function fieldErrors(response: CallResult): [string, string | undefined][] {
  return response.body.errors.map((e: { code: string; source?: { pointer: string } }) => [e.code, e.source?.pointer]);
}

async function rowCounts() {
  const { knex } = app.service.deps;
  const count = async (table: string) => Number((await knex(table).count({ n: '*' }))[0]!.n);
  return {
    organizations: await count('organizations'),
    users: await count('users'),
    password_policies: await count('password_policies'),
    password_history: await count('password_history'),
    term_acceptances: await count('term_acceptances'),
    operation_logs: await count('operation_logs'),
  };
}

describe('sign-up', () => {
  it('creates an organization on the free plan with its owner administrator, who can sign in', async () => {
    const attributes = await signUpAttributes({ corporateNumber: VALID_CORPORATE_NUMBER });
    const response = await app.api.call('signUp', { body: { data: { type: 'SignUp', attributes } } });
    expect(response.status).toBe(201);
    const { data } = response.body;
    expect(data.type).toBe('Organization');
    expect(data.attributes).toMatchObject({
      name: '株式会社サインアップ',
      corporateNumber: VALID_CORPORATE_NUMBER,
      plan: 'free',
      lockVersion: 0,
    });
    expect(data.attributes.code).toMatch(/^[a-z0-9]{8}$/);

    const { knex } = app.service.deps;
    const organization = await knex('organizations').where({ id: data.id }).first();
    expect(organization).toMatchObject({ plan: 'free', corporate_number: VALID_CORPORATE_NUMBER });
    const owner = await knex('users').where({ id: data.relationships.owner.data.id }).first();
    expect(owner).toMatchObject({
      organization_id: data.id,
      login_id: attributes.loginId,
      email: attributes.email,
      name: '鈴木 一郎',
      is_owner: true,
      is_admin: true,
      status: 'active',
      must_change_password: false,
      locale: 'ja',
    });
    expect(owner.password_hash).toMatch(/^\$argon2id\$/);
    expect(owner.password_hash).not.toContain(PASSWORD);
    expect(await knex('password_policies').where({ organization_id: data.id }).first()).toMatchObject({
      min_length: 8,
      expiry_days: null,
      reuse_count: 5,
    });
    expect(await knex('term_acceptances').where({ user_id: owner.id, term_id: attributes.acceptTermId })).toHaveLength(
      1,
    );
    expect(
      await knex('operation_logs').where({ organization_id: data.id, action: 'organization.signed_up' }),
    ).toHaveLength(1);

    const pair = await signIn(app, attributes.loginId, PASSWORD);
    const me = await app.api.call('getCurrentUser', { token: pair.authorizationToken });
    expect(me.body.data.attributes).toMatchObject({
      isOwner: true,
      isAdmin: true,
      organization: { id: data.id, plan: 'free' },
    });
  });

  it('accepts a sign-up without a corporate number (not subject), even several of them', async () => {
    const omitted = await signUp();
    const explicitNull = await signUp({ corporateNumber: null });
    expect(omitted.status).toBe(201);
    expect(explicitNull.status).toBe(201);
    expect(omitted.body.data.attributes.corporateNumber).toBeNull();
    expect(explicitNull.body.data.attributes.corporateNumber).toBeNull();
  });

  it('stores the language of the request as the owner locale (en with Accept-Language: en)', async () => {
    const response = await signUp({}, { 'accept-language': 'en-US,en;q=0.9' });
    expect(response.status).toBe(201);
    const owner = await app.service.deps
      .knex('users')
      .where({ id: response.body.data.relationships.owner.data.id })
      .first();
    expect(owner.locale).toBe('en');
  });

  it('rejects a corporate number with a wrong check digit with 422 CORPORATE_NUMBER_INVALID', async () => {
    const response = await signUp({ corporateNumber: '8000012050002' });
    expect(response.status).toBe(422);
    expect(fieldErrors(response)).toEqual([['CORPORATE_NUMBER_INVALID', at('corporateNumber')]]);
  });

  it('rejects a corporate number that is not 13 digits with 422 VALIDATION_FAILED', async () => {
    for (const bad of ['700001205000', '70000120500021', '700001205000a']) {
      const response = await signUp({ corporateNumber: bad });
      expect(response.status).toBe(422);
      expect(fieldErrors(response)).toEqual([['VALIDATION_FAILED', at('corporateNumber')]]);
    }
  });

  it('rejects a corporate number already registered with 422 CORPORATE_NUMBER_TAKEN', async () => {
    // The first test of this file registered it.
    const response = await signUp({ corporateNumber: VALID_CORPORATE_NUMBER });
    expect(response.status).toBe(422);
    expect(fieldErrors(response)).toEqual([['CORPORATE_NUMBER_TAKEN', at('corporateNumber')]]);
  });

  it('rejects a login ID already registered with 422 LOGIN_ID_TAKEN', async () => {
    const existing = await signUpOrganization(app);
    const response = await signUp({ loginId: existing.loginId });
    expect(response.status).toBe(422);
    expect(fieldErrors(response)).toEqual([['LOGIN_ID_TAKEN', at('loginId')]]);
  });

  it('answers concurrent sign-ups with the same login ID with one 201 and 422 LOGIN_ID_TAKEN for the rest', async () => {
    const loginId = uniqueLoginId('race');
    const responses = await Promise.all([1, 2, 3].map(() => signUp({ loginId, email: `${loginId}@example.com` })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422]);
    for (const refused of responses.filter((r) => r.status === 422)) {
      expect(fieldErrors(refused)).toEqual([['LOGIN_ID_TAKEN', at('loginId')]]);
    }
    expect(await app.service.deps.knex('users').where({ login_id: loginId })).toHaveLength(1);
  });

  it('rejects a login ID of 4 characters with 422 VALIDATION_FAILED and accepts 5', async () => {
    const short = await signUp({ loginId: 'abcd', email: 'abcd@example.com' });
    expect(short.status).toBe(422);
    expect(fieldErrors(short)).toEqual([['VALIDATION_FAILED', at('loginId')]]);
    const five = await signUp({ loginId: 'k5id0', email: 'k5id0@example.com' });
    expect(five.status).toBe(201);
  });

  it('rejects a login ID of 101 characters with 422 VALIDATION_FAILED and accepts 100', async () => {
    const long = await signUp({ loginId: 'L'.repeat(101), email: 'long-101@example.com' });
    expect(long.status).toBe(422);
    expect(fieldErrors(long)).toEqual([['VALIDATION_FAILED', at('loginId')]]);
    const hundred = await signUp({ loginId: 'L'.repeat(100), email: 'long-100@example.com' });
    expect(hundred.status).toBe(201);
  });

  it('rejects an acceptTermId that is not the terms in force with 422 TERMS_NOT_AGREED', async () => {
    const response = await signUp({ acceptTermId: randomUUID() });
    expect(response.status).toBe(422);
    expect(fieldErrors(response)).toEqual([['TERMS_NOT_AGREED', at('acceptTermId')]]);
  });

  it('reports several problems at once, one error per field', async () => {
    const existing = await signUpOrganization(app);
    const response = await signUp({
      loginId: existing.loginId,
      corporateNumber: '1000012050002',
      password: 'Another-pass1',
      passwordConfirmation: 'Another-pass2',
      acceptTermId: randomUUID(),
    });
    expect(response.status).toBe(422);
    expect(fieldErrors(response).sort()).toEqual(
      [
        ['CORPORATE_NUMBER_INVALID', at('corporateNumber')],
        ['LOGIN_ID_TAKEN', at('loginId')],
        ['PASSWORD_CONFIRMATION_MISMATCH', at('passwordConfirmation')],
        ['TERMS_NOT_AGREED', at('acceptTermId')],
      ].sort(),
    );
  });

  it('reports several schema problems at once, each at its field', async () => {
    const response = await signUp({ loginId: 'abc', email: 'not-an-email', organizationName: '' });
    expect(response.status).toBe(422);
    expect(fieldErrors(response).sort()).toEqual(
      [
        ['VALIDATION_FAILED', at('email')],
        ['VALIDATION_FAILED', at('loginId')],
        ['VALIDATION_FAILED', at('organizationName')],
      ].sort(),
    );
  });

  it('leaves no rows behind when a sign-up is rejected', async () => {
    const existing = await signUpOrganization(app);
    const before = await rowCounts();
    const rejected = [
      await signUp({ corporateNumber: '8000012050002' }),
      await signUp({ loginId: existing.loginId }),
      await signUp({ acceptTermId: randomUUID() }),
      await signUp({ password: 'short1', passwordConfirmation: 'short1' }),
      await signUp({ loginId: 'abcd' }),
    ];
    expect(rejected.map((r) => r.status)).toEqual([422, 422, 422, 422, 422]);
    expect(await rowCounts()).toEqual(before);
  });

  it('words errors in Japanese by default and in English with Accept-Language: en, with both in meta.messages', async () => {
    const ja = await signUp({ corporateNumber: '8000012050002' });
    const en = await signUp({ corporateNumber: '8000012050002' }, { 'accept-language': 'en' });
    const messages = {
      ja: ERROR_CATALOGUE.CORPORATE_NUMBER_INVALID.ja,
      en: ERROR_CATALOGUE.CORPORATE_NUMBER_INVALID.en,
    };
    expect(ja.body.errors[0]).toMatchObject({
      status: '422',
      title: messages.ja,
      detail: messages.ja,
      meta: { messages },
    });
    expect(en.body.errors[0]).toMatchObject({
      status: '422',
      title: messages.en,
      detail: messages.en,
      meta: { messages },
    });
    expect(ja.body.errors[0].traceId).toBe(ja.headers.get('x-request-id'));
    expect(ja.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
  });
});
