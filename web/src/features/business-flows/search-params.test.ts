import { describe, expect, it } from 'vitest';
import { checkCondition, conditionKindOf, newCondition, normalizeCondition } from './condition-check.ts';
import {
  conditionFilter,
  decodeConditions,
  emptySearch,
  encodeConditions,
  type FlowSearch,
  flowSearchParams,
  hasFilters,
  isBlankCondition,
  parseFlowSearch,
  type PropertyCondition,
  validateFlowSearchParams,
  validateNewFlowSearch,
} from './search-params.ts';

const AMOUNT = '0b5e2a4c-1111-4a2b-9c3d-000000000001';
const DATE = '0b5e2a4c-1111-4a2b-9c3d-000000000002';
const PARTNER = '0b5e2a4c-1111-4a2b-9c3d-000000000003';
const KIND = '0b5e2a4c-1111-4a2b-9c3d-000000000004';

const CONDITIONS: PropertyCondition[] = [
  { propertyId: AMOUNT, kind: 'range', from: '100000', to: '' },
  { propertyId: DATE, kind: 'range', from: '2026-04-01', to: '2026-04-30' },
  { propertyId: PARTNER, kind: 'contains', text: '株式会社A, 東京:本社' },
  { propertyId: KIND, kind: 'options', optionIds: ['opt-1', 'opt-2'] },
];

describe('property conditions in the URL', () => {
  it('round-trips several ANDed conditions, commas and colons in a typed text included', () => {
    const encoded = encodeConditions(CONDITIONS);
    expect(encoded.split(',')).toHaveLength(4);
    expect(decodeConditions(encoded)).toEqual(CONDITIONS);
  });

  it('keeps an empty bound of a range so a one-sided range stays one-sided', () => {
    const [decoded] = decodeConditions(encodeConditions([CONDITIONS[0]!]));
    expect(decoded).toEqual({ propertyId: AMOUNT, kind: 'range', from: '100000', to: '' });
  });

  it('drops a malformed condition and keeps the others', () => {
    const encoded = `${encodeConditions([CONDITIONS[0]!])},nonsense,${AMOUNT}:range:1,%E0%A4%A:contains:x`;
    expect(decodeConditions(encoded)).toEqual([CONDITIONS[0]]);
  });

  it('reads no conditions from an absent parameter', () => {
    expect(decodeConditions(undefined)).toEqual([]);
    expect(decodeConditions('')).toEqual([]);
  });
});

describe('the whole search in the URL', () => {
  const search: FlowSearch = {
    q: '売買',
    statuses: ['in_progress', 'complete'],
    workspaceId: 'ws-1',
    dates: {
      createdFrom: '2026-01-01',
      createdTo: '',
      updatedFrom: '',
      updatedTo: '2026-12-31',
      completedFrom: '',
      completedTo: '',
    },
    conditions: CONDITIONS,
    sort: 'name',
    page: 3,
    size: 50,
  };

  it('round-trips through flat string parameters', () => {
    const params = flowSearchParams(search);
    for (const value of Object.values(params)) expect(typeof value).toBe('string');
    expect(parseFlowSearch(validateFlowSearchParams(params))).toEqual(search);
  });

  it('leaves the defaults out, so the plain list has no parameters', () => {
    expect(flowSearchParams(emptySearch())).toEqual({});
  });

  it('falls back to the defaults for unknown statuses, sorts, sizes, pages and malformed days', () => {
    const parsed = parseFlowSearch({
      status: 'complete,deleted',
      sort: 'password',
      size: '7',
      page: '-2',
      createdFrom: '2026/01/01',
    });
    expect(parsed.statuses).toEqual(['complete']);
    expect(parsed.sort).toBe('-updatedAt');
    expect(parsed.size).toBe(20);
    expect(parsed.page).toBe(1);
    expect(parsed.dates.createdFrom).toBe('');
  });

  it('keeps only known string parameters in validateSearch', () => {
    expect(validateFlowSearchParams({ q: 'x', page: 2, other: 'y', status: ['a'] })).toEqual({ q: 'x', page: '2' });
  });

  it('filters drafts only when asked, in the order of the status choices', () => {
    expect(parseFlowSearch({ status: 'complete,draft' }).statuses).toEqual(['complete', 'draft']);
    expect(flowSearchParams({ ...emptySearch(), statuses: ['draft'] })).toEqual({ status: 'draft' });
    expect(parseFlowSearch({}).statuses).toEqual([]);
  });

  it("keeps the creation screen's workspace and draft only when they look like ids", () => {
    expect(validateNewFlowSearch({ draft: AMOUNT, workspaceId: DATE, other: 'x' })).toEqual({
      draft: AMOUNT,
      workspaceId: DATE,
    });
    expect(validateNewFlowSearch({ draft: '../x', workspaceId: 3 })).toEqual({});
  });
});

describe('conditions as the request sends them', () => {
  it('sends only the bounds that are filled in', () => {
    expect(conditionFilter({ propertyId: AMOUNT, kind: 'range', from: ' 10 ', to: '' })).toEqual({
      propertyId: AMOUNT,
      from: '10',
    });
    expect(conditionFilter(CONDITIONS[2]!)).toEqual({ propertyId: PARTNER, contains: '株式会社A, 東京:本社' });
    expect(conditionFilter(CONDITIONS[3]!)).toEqual({ propertyId: KIND, optionIds: ['opt-1', 'opt-2'] });
  });

  it('treats a condition without text, bound or option as blank', () => {
    expect(isBlankCondition({ propertyId: AMOUNT, kind: 'range', from: ' ', to: '' })).toBe(true);
    expect(isBlankCondition({ propertyId: KIND, kind: 'options', optionIds: [] })).toBe(true);
    expect(isBlankCondition(CONDITIONS[0]!)).toBe(false);
  });
});

describe('checking a condition against its property', () => {
  const amount = { id: AMOUNT, inputType: 10, decimalLength: 0 };
  const date = { id: DATE, inputType: 30 };

  it('picks the condition kind by input type', () => {
    expect([10, 20, 30, 40].map(conditionKindOf)).toEqual(['range', 'contains', 'range', 'options']);
    expect(newCondition(amount)).toEqual({ propertyId: AMOUNT, kind: 'range', from: '', to: '' });
  });

  it('refuses a range whose from is after its to (SEARCH_RANGE_INVALID)', () => {
    expect(checkCondition({ propertyId: AMOUNT, kind: 'range', from: '500', to: '100' }, amount)).toEqual([
      { part: 'to', code: 'SEARCH_RANGE_INVALID' },
    ]);
    expect(checkCondition({ propertyId: DATE, kind: 'range', from: '2026-05-01', to: '2026/04/30' }, date)).toEqual([
      { part: 'to', code: 'SEARCH_RANGE_INVALID' },
    ]);
  });

  it('compares numbers as numbers, not as texts', () => {
    expect(checkCondition({ propertyId: AMOUNT, kind: 'range', from: '9', to: '10' }, amount)).toEqual([]);
  });

  it('reports a bound that is not a number or not a date with the value rule codes', () => {
    expect(checkCondition({ propertyId: AMOUNT, kind: 'range', from: 'abc', to: '' }, amount)).toEqual([
      { part: 'from', code: 'PROPERTY_VALUE_NOT_A_NUMBER' },
    ]);
    expect(checkCondition({ propertyId: DATE, kind: 'range', from: '', to: '2026-02-30' }, date)).toEqual([
      { part: 'to', code: 'PROPERTY_VALUE_DATE_NOT_EXIST' },
    ]);
  });

  it('refuses a condition on an unknown property or of the wrong kind (SEARCH_PROPERTY_INVALID)', () => {
    expect(checkCondition(CONDITIONS[2]!, undefined)).toEqual([{ part: 'property', code: 'SEARCH_PROPERTY_INVALID' }]);
    expect(checkCondition(CONDITIONS[2]!, { id: PARTNER, inputType: 10 })).toEqual([
      { part: 'property', code: 'SEARCH_PROPERTY_INVALID' },
    ]);
  });

  it('normalizes yen commas and slashed dates before sending', () => {
    expect(normalizeCondition({ propertyId: AMOUNT, kind: 'range', from: '1,000,000', to: '' }, amount)).toEqual({
      propertyId: AMOUNT,
      kind: 'range',
      from: '1000000',
      to: '',
    });
    expect(normalizeCondition({ propertyId: DATE, kind: 'range', from: '2026/04/01', to: '' }, date)).toMatchObject({
      from: '2026-04-01',
    });
  });
});

describe('whether a search filters', () => {
  it('ignores sort, page and size but not a status or a condition', () => {
    expect(hasFilters({ ...emptySearch(), sort: 'name', page: 3, size: 50 })).toBe(false);
    expect(hasFilters({ ...emptySearch(), statuses: ['complete'] })).toBe(true);
    expect(hasFilters({ ...emptySearch(), conditions: [CONDITIONS[0]!] })).toBe(true);
  });
});
