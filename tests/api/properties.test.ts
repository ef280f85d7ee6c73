import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../core/http/errors.ts';
import { MAX_PROPERTIES } from '../../core/modules/properties/model.ts';
import {
  type PropertyValueInput,
  readPropertyValues,
  writePropertyValues,
} from '../../core/modules/properties/values.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { memberToken, signedInOwner } from '../helpers/accounts.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'Property', attributes } });

async function create(token: string, attributes: Record<string, unknown>) {
  return app.api.call('createProperty', { token, body: body({ inputType: 20, scope: 10, ...attributes }) });
}

async function created(token: string, attributes: Record<string, unknown>) {
  const response = await create(token, attributes);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

async function update(token: string, id: string, attributes: Record<string, unknown>) {
  return app.api.call('updateProperty', { token, params: { propertyId: id }, body: body(attributes) });
}

async function logsOf(organizationId: string, action: string) {
  return knex()('operation_logs').where({ organization_id: organizationId, action }).orderBy('id');
}

/** Writes values the way business flows will (issue [4/5]), in a transaction of its own. */
async function writeValues(organizationId: string, targetId: string, values: PropertyValueInput[], now = new Date()) {
  return knex().transaction((trx) =>
    writePropertyValues(trx, { organizationId, targetType: 'business_flow', targetId, values, now }),
  );
}

const FLOW_ID = '00000000-0000-4000-8000-000000000001';

describe('custom property definitions', () => {
  it('creates a property with defaults for its input type and logs it', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: ' 契約金額 ', inputType: 10, numberUnit: 20, maxLength: 5 });
    expect(property.attributes).toMatchObject({
      name: '契約金額',
      systemLinkId: null,
      inputType: 10,
      scope: 10,
      numberUnit: 20,
      integerLength: 15,
      decimalLength: 0,
      maxLength: null,
      options: [],
      optionsVersion: 0,
      inUse: false,
      lockVersion: 0,
    });
    const read = await app.api.call('getProperty', { token: org.token, params: { propertyId: property.id } });
    expect(read.body.data).toEqual(property);
    const [log] = await logsOf(org.organizationId, 'property.created');
    expect(log).toMatchObject({ target_type: 'property', target_id: property.id });
    expect(log.details).toMatchObject({ name: '契約金額', input_type: 10 });
  });

  it('lets any member read definitions on any plan but refuses changes on the free plan with 403 PLAN_FEATURE_UNAVAILABLE', async () => {
    const org = await signedInOwner(app, { plan: 'free' });
    const list = await app.api.call('listProperties', { token: org.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ data: [], meta: { total: 0, maxProperties: MAX_PROPERTIES } });
    const response = await create(org.token, { name: 'x' });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('PLAN_FEATURE_UNAVAILABLE');
    expect(await knex()('custom_properties').where({ organization_id: org.organizationId })).toHaveLength(0);
  });

  it('lets members read definitions but only administrators change them (403 FUNCTION_NOT_PERMITTED)', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: '備考' });
    const member = await memberToken(app, org.organizationId);
    expect((await app.api.call('listProperties', { token: member })).body.data).toHaveLength(1);
    expect((await app.api.call('getProperty', { token: member, params: { propertyId: property.id } })).status).toBe(
      200,
    );
    const refused = [
      await create(member, { name: 'y' }),
      await update(member, property.id, { name: 'z', lockVersion: 0 }),
      await app.api.call('deleteProperty', { token: member, params: { propertyId: property.id } }),
    ];
    expect(refused.map((r) => r.body.errors[0].code)).toEqual([
      'FUNCTION_NOT_PERMITTED',
      'FUNCTION_NOT_PERMITTED',
      'FUNCTION_NOT_PERMITTED',
    ]);
    expect((await knex()('custom_properties').where({ id: property.id }).first()).name).toBe('備考');
  });

  it('rejects a duplicate name with 422 PROPERTY_NAME_TAKEN', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const first = await created(org.token, { name: '件名' });
    const again = await create(org.token, { name: '件名 ', scope: 20, inputType: 30 });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({
      code: 'PROPERTY_NAME_TAKEN',
      source: { pointer: '/data/attributes/name' },
    });
    const other = await created(org.token, { name: '別名' });
    const renamed = await update(org.token, other.id, { name: '件名', lockVersion: 0 });
    expect(renamed.body.errors[0].code).toBe('PROPERTY_NAME_TAKEN');
    expect((await update(org.token, first.id, { name: '件名', lockVersion: 0 })).status).toBe(200);
  });

  it('keeps systemLinkId unique within the organization (422 SYSTEM_LINK_ID_TAKEN), not across organizations', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    await created(org.token, { name: 'a', systemLinkId: 'EXT-1' });
    const again = await create(org.token, { name: 'b', systemLinkId: 'EXT-1' });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({
      code: 'SYSTEM_LINK_ID_TAKEN',
      source: { pointer: '/data/attributes/systemLinkId' },
    });
    const otherOrg = await signedInOwner(app, { plan: 'standard' });
    await created(otherOrg.token, { name: 'a', systemLinkId: 'EXT-1' });
    await created(org.token, { name: 'c', systemLinkId: '' });
    await created(org.token, { name: 'd', systemLinkId: null });
  });

  it(`refuses more than ${MAX_PROPERTIES} properties per organization with 422 PROPERTY_LIMIT`, async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    await knex()('custom_properties').insert(
      Array.from({ length: MAX_PROPERTIES - 1 }, (_, i) => ({
        organization_id: org.organizationId,
        name: `p${i}`,
        input_type: 30,
        scope: 10,
      })),
    );
    await created(org.token, { name: 'last one' });
    const response = await create(org.token, { name: 'one too many' });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ code: 'PROPERTY_LIMIT', source: { pointer: '/data' } });
    expect(response.body.errors[0].meta.messages.en).toBe(`You can register at most ${MAX_PROPERTIES} properties.`);
    expect(await knex()('custom_properties').where({ organization_id: org.organizationId })).toHaveLength(100);
  });

  it('answers an invalid definition with 422 and one error per field from the shared definition validator', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const response = await create(org.token, {
      name: '',
      inputType: 20,
      minLength: 10,
      maxLength: 5,
      editableByClient: true,
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: any) => [e.source.pointer, e.code])).toEqual([
      ['/data/attributes/name', 'PROPERTY_VALUE_REQUIRED'],
      ['/data/attributes/minLength', 'PROPERTY_MIN_LENGTH_EXCEEDS_MAX'],
      ['/data/attributes/editableByClient', 'PROPERTY_EDITABLE_REQUIRES_PUBLIC'],
    ]);
    const digits = await create(org.token, { name: 'n', inputType: 10, integerLength: 10, decimalLength: 6 });
    expect(digits.body.errors[0]).toMatchObject({
      code: 'PROPERTY_DIGITS_EXCEED_LIMIT',
      source: { pointer: '/data/attributes/decimalLength' },
    });
    const noOptions = await create(org.token, { name: 'e', inputType: 40, options: [] });
    expect(noOptions.body.errors[0].code).toBe('PROPERTY_OPTIONS_REQUIRED');
    expect(await knex()('custom_properties').where({ organization_id: org.organizationId })).toHaveLength(0);
  });

  it('lists with search, scope and input type filters, sort and paging', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    await created(org.token, { name: 'beta', systemLinkId: 'sys-x', inputType: 30 });
    await created(org.token, { name: 'alpha', scope: 20 });
    await created(org.token, { name: 'gamma 100%', inputType: 10 });
    const call = (query: Record<string, string | number>) =>
      app.api.call('listProperties', { token: org.token, query });
    const names = (r: { body: { data: { attributes: { name: string } }[] } }) =>
      r.body.data.map((p) => p.attributes.name);
    expect(names(await call({}))).toEqual(['alpha', 'beta', 'gamma 100%']);
    expect(names(await call({ sort: '-createdAt' }))).toEqual(['gamma 100%', 'alpha', 'beta']);
    expect(names(await call({ 'filter[q]': 'SYS-' }))).toEqual(['beta']);
    expect(names(await call({ 'filter[q]': '0%' }))).toEqual(['gamma 100%']);
    expect(names(await call({ 'filter[scope]': 20 }))).toEqual(['alpha']);
    expect(names(await call({ 'filter[inputType]': 10 }))).toEqual(['gamma 100%']);
    const page = await call({ 'page[size]': 2, 'page[number]': 2, sort: 'createdAt' });
    expect(names(page)).toEqual(['gamma 100%']);
    expect(page.body.meta).toMatchObject({ total: 3, page: { number: 2, size: 2 } });
  });

  it('rejects a stale lockVersion with 409 UPDATED_BY_ANOTHER_USER', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'Memo' });
    const first = await update(org.token, property.id, { name: 'Memo 2', maxLength: 50, lockVersion: 0 });
    expect(first.body.data.attributes).toMatchObject({ name: 'Memo 2', maxLength: 50, lockVersion: 1 });
    const stale = await update(org.token, property.id, { name: 'Memo 3', lockVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    expect((await knex()('custom_properties').where({ id: property.id }).first()).name).toBe('Memo 2');
    const logs = await logsOf(org.organizationId, 'property.updated');
    expect(logs).toHaveLength(1);
    expect(logs[0].details.settings).toEqual({ name: ['Memo', 'Memo 2'], max_length: [1000, 50] });
  });

  it('adds, renames, reorders and deletes enum options, bumping optionsVersion but not lockVersion', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, {
      name: '区分',
      inputType: 40,
      options: [{ label: 'A' }, { label: 'B' }],
    });
    const [a, b] = property.attributes.options as { id: string; label: string }[];
    const response = await update(org.token, property.id, {
      lockVersion: 0,
      optionsVersion: 0,
      options: [{ label: 'C' }, { id: b!.id, label: 'B2' }],
    });
    expect(response.status).toBe(200);
    const attributes = response.body.data.attributes;
    expect(attributes.options.map((o: { label: string }) => o.label)).toEqual(['C', 'B2']);
    expect(attributes.options[1].id).toBe(b!.id);
    expect(attributes).toMatchObject({ optionsVersion: 1, lockVersion: 0 });
    expect(await knex()('property_options').where({ id: a!.id })).toHaveLength(0);
    const [log] = await logsOf(org.organizationId, 'property.updated');
    expect(log.details.options).toEqual({
      added: ['C'],
      removed: ['A'],
      renamed: [{ from: 'B', to: 'B2' }],
      reordered: false,
    });
    const reordered = await update(org.token, property.id, {
      lockVersion: 0,
      optionsVersion: 1,
      options: [attributes.options[1], attributes.options[0]].map(({ id, label }) => ({ id, label })),
    });
    expect(reordered.body.data.attributes.options.map((o: { label: string }) => o.label)).toEqual(['B2', 'C']);
    expect(reordered.body.data.attributes.optionsVersion).toBe(2);
  });

  it('requires optionsVersion with options', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'e', inputType: 40, options: [{ label: 'A' }] });
    const response = await update(org.token, property.id, { lockVersion: 0, options: [{ label: 'B' }] });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/attributes/optionsVersion');
  });

  it('rejects a stale optionsVersion with 409 PROPERTY_OPTIONS_CHANGED', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'e', inputType: 40, options: [{ label: 'A' }] });
    await update(org.token, property.id, {
      lockVersion: 0,
      optionsVersion: 0,
      options: [{ label: 'A' }, { label: 'B' }],
    });
    const stale = await update(org.token, property.id, {
      lockVersion: 0,
      optionsVersion: 0,
      options: [{ label: 'X' }],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('PROPERTY_OPTIONS_CHANGED');
    expect(stale.body.errors[0].meta.messages.en).toBe('Options have been added, deleted or renamed by another user.');
    const labels = await knex()('property_options').where({ property_id: property.id }).orderBy('position');
    expect(labels.map((o) => o.label)).toEqual(['A', 'B']);
  });

  it('refuses to delete an option in use with 409 PROPERTY_OPTION_IN_USE', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'e', inputType: 40, options: [{ label: 'A' }, { label: 'B' }] });
    const [a, b] = property.attributes.options as { id: string; label: string }[];
    await writeValues(org.organizationId, FLOW_ID, [{ propertyId: property.id, value: a!.id }]);
    const read = await app.api.call('getProperty', { token: org.token, params: { propertyId: property.id } });
    expect(read.body.data.attributes.options.map((o: { inUse: boolean }) => o.inUse)).toEqual([true, false]);
    const response = await update(org.token, property.id, {
      lockVersion: 0,
      optionsVersion: 0,
      options: [{ id: b!.id, label: 'B' }],
    });
    expect(response.status).toBe(409);
    expect(response.body.errors[0].code).toBe('PROPERTY_OPTION_IN_USE');
    expect(await knex()('property_options').where({ property_id: property.id })).toHaveLength(2);
    const renamed = await update(org.token, property.id, {
      lockVersion: 0,
      optionsVersion: 0,
      options: [
        { id: a!.id, label: 'A (renamed)' },
        { id: b!.id, label: 'B' },
      ],
    });
    expect(renamed.status).toBe(200);
  });

  it('refuses to change the input type or scope of a property in use with 409 PROPERTY_IN_USE', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'memo' });
    await writeValues(org.organizationId, FLOW_ID, [{ propertyId: property.id, value: 'hello' }]);
    const typeChange = await update(org.token, property.id, { inputType: 30, lockVersion: 0 });
    expect(typeChange.status).toBe(409);
    expect(typeChange.body.errors[0]).toMatchObject({
      code: 'PROPERTY_IN_USE',
      source: { pointer: '/data/attributes/inputType' },
    });
    const scopeChange = await update(org.token, property.id, { scope: 20, lockVersion: 0 });
    expect(scopeChange.body.errors[0].code).toBe('PROPERTY_IN_USE');
    expect(await knex()('custom_properties').where({ id: property.id }).first()).toMatchObject({
      input_type: 20,
      scope: 10,
      lock_version: 0,
    });
  });

  it('clears the settings and options of the old input type when an unused property changes type', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'e', inputType: 40, options: [{ label: 'A' }] });
    const response = await update(org.token, property.id, { inputType: 10, decimalLength: 2, lockVersion: 0 });
    expect(response.body.data.attributes).toMatchObject({
      inputType: 10,
      integerLength: 13,
      decimalLength: 2,
      options: [],
      optionsVersion: 1,
      lockVersion: 1,
    });
    expect(await knex()('property_options').where({ property_id: property.id })).toHaveLength(0);
  });

  it('refuses to delete a property in use with 409 PROPERTY_IN_USE and deletes an unused one', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const used = await created(org.token, { name: 'used' });
    const unused = await created(org.token, { name: 'unused', inputType: 40, options: [{ label: 'A' }] });
    await writeValues(org.organizationId, FLOW_ID, [{ propertyId: used.id, value: 'x' }]);
    const refused = await app.api.call('deleteProperty', { token: org.token, params: { propertyId: used.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('PROPERTY_IN_USE');
    const deleted = await app.api.call('deleteProperty', { token: org.token, params: { propertyId: unused.id } });
    expect(deleted.status).toBe(204);
    expect(await knex()('custom_properties').where({ organization_id: org.organizationId }).pluck('name')).toEqual([
      'used',
    ]);
    const [log] = await logsOf(org.organizationId, 'property.deleted');
    expect(log).toMatchObject({ target_id: unused.id, details: { name: 'unused', systemLinkId: null } });
  });

  it('answers 404 NOT_FOUND for another organization’s property and changes nothing', async () => {
    const owner = await signedInOwner(app, { plan: 'standard' });
    const property = await created(owner.token, { name: 'secret', inputType: 40, options: [{ label: 'A' }] });
    const intruder = await signedInOwner(app, { plan: 'standard' });
    const params = { propertyId: property.id };
    const responses = [
      await app.api.call('getProperty', { token: intruder.token, params }),
      await update(intruder.token, property.id, { name: 'taken', lockVersion: 0 }),
      await update(intruder.token, property.id, { lockVersion: 0, optionsVersion: 0, options: [{ label: 'B' }] }),
      await app.api.call('deleteProperty', { token: intruder.token, params }),
    ];
    expect(responses.map((r) => [r.status, r.body.errors[0].code])).toEqual(Array(4).fill([404, 'NOT_FOUND']));
    expect((await app.api.call('listProperties', { token: intruder.token })).body.data).toEqual([]);
    const after = await app.api.call('getProperty', { token: owner.token, params });
    expect(after.body.data).toEqual(property);
    expect(await logsOf(intruder.organizationId, 'property.updated')).toHaveLength(0);
  });
});

describe('property values (the service business flows and documents use)', () => {
  it('checks every value with the shared validator and answers all problems in one 422 with pointers', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const amount = await created(org.token, { name: 'amount', inputType: 10, numberUnit: 20, minValue: 0 });
    const due = await created(org.token, { name: 'due', inputType: 30, afterTomorrow: true });
    const code = await created(org.token, { name: 'code', allowFullWidth: false, required: true });
    const error = (await writeValues(
      org.organizationId,
      FLOW_ID,
      [
        { propertyId: amount.id, value: '12,34' },
        { propertyId: due.id, value: '2026-06-01' },
        { propertyId: code.id, value: 'ＡＢＣ' },
      ],
      new Date('2026-06-01T03:00:00Z'),
    ).catch((e: unknown) => e)) as AppError;
    expect(error.status).toBe(422);
    expect(error.fields.map((f) => [f.pointer, f.code])).toEqual([
      ['/data/attributes/properties/0/value', 'PROPERTY_VALUE_COMMA_POSITION'],
      ['/data/attributes/properties/1/value', 'PROPERTY_VALUE_DATE_BEFORE_TOMORROW'],
      ['/data/attributes/properties/2/value', 'PROPERTY_VALUE_FULL_WIDTH'],
    ]);
    expect(await knex()('property_values').where({ organization_id: org.organizationId })).toHaveLength(0);
  });

  it('stores normalized values and reads them back with the option label', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const amount = await created(org.token, { name: 'amount', inputType: 10, numberUnit: 20, decimalLength: 2 });
    const due = await created(org.token, { name: 'due', inputType: 30 });
    const kind = await created(org.token, { name: 'kind', inputType: 40, options: [{ label: '売買' }] });
    const optionId = kind.attributes.options[0].id as string;
    const { changed } = await writeValues(org.organizationId, FLOW_ID, [
      { propertyId: amount.id, value: '1,234,567.50' },
      { propertyId: due.id, value: '2027/02/28' },
      { propertyId: kind.id, value: optionId },
    ]);
    expect(changed.map((c) => c.after)).toEqual(['1234567.50', '2027-02-28', optionId]);
    const values = await readPropertyValues(knex(), org.organizationId, 'business_flow', [FLOW_ID]);
    expect(values.get(FLOW_ID)).toEqual([
      { propertyId: amount.id, value: '1234567.50', labelName: null },
      { propertyId: due.id, value: '2027-02-28', labelName: null },
      { propertyId: kind.id, value: optionId, labelName: '売買' },
    ]);
    await writeValues(org.organizationId, FLOW_ID, [{ propertyId: due.id, value: null }]);
    const after = await readPropertyValues(knex(), org.organizationId, 'business_flow', [FLOW_ID]);
    expect(after.get(FLOW_ID)?.map((v) => v.propertyId)).toEqual([amount.id, kind.id]);
  });

  it('refuses a value entered against a stale definition with 409 PROPERTY_DEFINITION_CHANGED', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const property = await created(org.token, { name: 'memo' });
    await update(org.token, property.id, { maxLength: 3, lockVersion: 0 });
    const error = (await writeValues(org.organizationId, FLOW_ID, [
      { propertyId: property.id, value: 'abcdef', lockVersion: 0 },
    ]).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('PROPERTY_DEFINITION_CHANGED');
    expect(error.status).toBe(409);
    expect(await knex()('property_values').where({ property_id: property.id })).toHaveLength(0);
  });

  it('refuses a property of another organization or of the other scope as REFERENCE_NOT_FOUND', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const documentProperty = await created(org.token, { name: 'doc only', scope: 20 });
    const other = await signedInOwner(app, { plan: 'standard' });
    const foreign = await created(other.token, { name: 'foreign' });
    const error = (await writeValues(org.organizationId, FLOW_ID, [
      { propertyId: documentProperty.id, value: 'x' },
      { propertyId: foreign.id, value: 'y' },
    ]).catch((e: unknown) => e)) as AppError;
    expect(error.fields.map((f) => [f.pointer, f.code])).toEqual([
      ['/data/attributes/properties/0/propertyId', 'REFERENCE_NOT_FOUND'],
      ['/data/attributes/properties/1/propertyId', 'REFERENCE_NOT_FOUND'],
    ]);
  });
});
