import { describe, expect, it } from 'vitest';
import {
  createAttributes,
  emptyFlowInput,
  type FlowInput,
  flowServerProblems,
  updateAttributes,
  validateFlow,
} from './flow-form-state.ts';
import { editableDefinitions, type ValueDefinition } from './property-values.ts';

const AMOUNT = '11111111-1111-4111-8111-111111111111';
const DUE = '22222222-2222-4222-8222-222222222222';

const definition = (id: string, attributes: Partial<ValueDefinition['attributes']>): ValueDefinition => ({
  id,
  attributes: {
    name: id,
    inputType: 20,
    required: false,
    numberUnit: null,
    integerLength: null,
    decimalLength: null,
    minValue: null,
    maxValue: null,
    minLength: null,
    maxLength: null,
    allowNewline: null,
    allowFullWidth: null,
    afterTomorrow: null,
    options: [],
    ...attributes,
  },
});

const DEFINITIONS = [
  definition(AMOUNT, {
    name: '取引金額',
    inputType: 10,
    numberUnit: 20,
    required: true,
    lockVersion: 2,
    optionsVersion: 0,
  }),
  definition(DUE, { name: '期日', inputType: 30, afterTomorrow: true }),
];

const filled = (patch: Partial<FlowInput> = {}): FlowInput => ({
  ...emptyFlowInput('ws-1'),
  name: ' 売買契約 ',
  values: { [AMOUNT]: '1,500,000' },
  ...patch,
});

describe('checking the business flow form', () => {
  it('accepts a named flow whose required yen amount uses commas at thousands', () => {
    expect(validateFlow(filled(), DEFINITIONS, { creating: true, today: '2026-04-01' })).toEqual({});
  });

  it('asks for the workspace and, from a template, for the template', () => {
    const problems = validateFlow(filled({ workspaceId: '', source: 'template' }), DEFINITIONS, {
      creating: true,
      today: '2026-04-01',
    });
    expect(problems.workspaceId?.[0]?.reason).toBe('chooseWorkspace');
    expect(problems.templateId?.[0]?.reason).toBe('chooseTemplate');
  });

  it('reports property values with the shared validator, by property', () => {
    const problems = validateFlow(filled({ values: { [AMOUNT]: '12,34', [DUE]: '2026-04-01' } }), DEFINITIONS, {
      creating: false,
      today: '2026-04-01',
    });
    expect(problems[`property:${AMOUNT}`]).toEqual([{ code: 'PROPERTY_VALUE_COMMA_POSITION' }]);
    expect(problems[`property:${DUE}`]).toEqual([
      { code: 'PROPERTY_VALUE_DATE_BEFORE_TOMORROW', params: { date: '2026-04-02' } },
    ]);
  });

  it('requires a name of at most 100 characters', () => {
    expect(validateFlow(filled({ name: ' ' }), [], { creating: false }).name?.[0]?.reason).toBe('required');
    expect(validateFlow(filled({ name: 'x'.repeat(101) }), [], { creating: false }).name?.[0]).toMatchObject({
      reason: 'tooLong',
      params: { max: 100 },
    });
  });
});

describe('the request attributes', () => {
  it('sends trimmed fields, blank values as null and the definitions’ versions', () => {
    expect(createAttributes(filled(), DEFINITIONS)).toEqual({
      name: '売買契約',
      systemLinkId: null,
      comment: null,
      autoComplete: true,
      properties: [
        { propertyId: AMOUNT, value: '1,500,000', lockVersion: 2, optionsVersion: 0 },
        { propertyId: DUE, value: null },
      ],
    });
  });

  it('names the template only when creating from one, and the lockVersion on update', () => {
    const fromTemplate = createAttributes(filled({ source: 'template', templateId: 'tpl-1' }), []);
    expect(fromTemplate.businessFlowTemplateId).toBe('tpl-1');
    expect(createAttributes(filled({ templateId: 'tpl-1' }), [])).not.toHaveProperty('businessFlowTemplateId');
    expect(updateAttributes(filled(), [], 7).lockVersion).toBe(7);
  });

  it('places server problems by field and by the index of the value sent', () => {
    const problems = flowServerProblems(
      [
        { code: 'SYSTEM_LINK_ID_TAKEN', source: { pointer: '/data/attributes/systemLinkId' } },
        { code: 'PROPERTY_VALUE_ABOVE_MAX', source: { pointer: '/data/attributes/properties/1/value' } },
        { code: 'UPDATED_BY_ANOTHER_USER' },
      ],
      [AMOUNT, DUE],
    );
    expect(problems).toEqual({
      systemLinkId: [{ code: 'SYSTEM_LINK_ID_TAKEN' }],
      [`property:${DUE}`]: [{ code: 'PROPERTY_VALUE_ABOVE_MAX' }],
    });
  });
});

describe('the definitions of the edit form', () => {
  const stored = [{ propertyId: 'p-1', name: '取引先', inputType: 20, value: '株式会社A', labelName: null }];

  it('uses the organization’s definitions on the owner’s side', () => {
    expect(editableDefinitions(stored, DEFINITIONS, true)).toEqual(DEFINITIONS);
  });

  it('uses only the values shown to a partner, whose rules the server checks', () => {
    const [only, ...rest] = editableDefinitions(stored, DEFINITIONS, false);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ id: 'p-1', attributes: { name: '取引先', inputType: 20, required: false } });
  });
});
