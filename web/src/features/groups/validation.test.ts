import { describe, expect, it } from 'vitest';
import { groupAttributes, serverProblems, validateGroup } from './validation.ts';

describe('validateGroup', () => {
  it('requires a name of at most 100 characters', () => {
    expect(validateGroup({ name: '  ', systemLinkId: '' })).toEqual({
      name: [{ code: 'VALIDATION_FAILED', reason: 'required' }],
    });
    expect(validateGroup({ name: 'x'.repeat(100), systemLinkId: '' })).toEqual({});
    expect(validateGroup({ name: 'x'.repeat(101), systemLinkId: '' }).name).toEqual([
      { code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max: 100 } },
    ]);
  });

  it('limits the ID for system link to 100 characters', () => {
    expect(validateGroup({ name: '営業部', systemLinkId: 'x'.repeat(101) }).systemLinkId?.[0]?.reason).toBe('tooLong');
  });
});

describe('groupAttributes', () => {
  it('trims and sends an empty ID for system link as null', () => {
    expect(groupAttributes({ name: ' 営業部 ', systemLinkId: ' ' })).toEqual({ name: '営業部', systemLinkId: null });
    expect(groupAttributes({ name: '営業部', systemLinkId: 'G-1' })).toEqual({ name: '営業部', systemLinkId: 'G-1' });
  });
});

describe('serverProblems', () => {
  it('places name and ID-for-system-link errors, and leaves the rest to the alert', () => {
    expect(
      serverProblems([
        { code: 'GROUP_NAME_TAKEN', source: { pointer: '/data/attributes/name' } },
        { code: 'SYSTEM_LINK_ID_TAKEN', source: { pointer: '/data/attributes/systemLinkId' } },
        { code: 'GROUP_LIMIT' },
      ]),
    ).toEqual({ name: [{ code: 'GROUP_NAME_TAKEN' }], systemLinkId: [{ code: 'SYSTEM_LINK_ID_TAKEN' }] });
  });
});
