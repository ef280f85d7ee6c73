import { describe, expect, it } from 'vitest';
import { fieldOfPointer, type SignDraft, signAttributes, signProblems } from './sign-request.ts';

const rect = { x1: 10, y1: 10, x2: 70, y2: 70 };

const draft = (extra: Partial<SignDraft> = {}): SignDraft => ({
  signatureType: 'operator',
  twoFactor: 'none',
  needs: { requiresPin: false, requiredPlacement: null },
  placements: [],
  pin: '',
  code: '',
  principalId: '',
  comment: '',
  ...extra,
});

describe('signProblems', () => {
  it('asks for nothing more of a business-operator signature without two-factor', () => {
    expect(signProblems(draft())).toEqual([]);
  });

  it('asks for a 6-digit code when the task has two-factor', () => {
    expect(signProblems(draft({ twoFactor: 'sms', code: '12345' }))).toEqual([{ field: 'code', key: 'codeRequired' }]);
    expect(signProblems(draft({ twoFactor: 'email', code: ' 123456 ' }))).toEqual([]);
  });

  it('asks for the placement a seal-image or handwritten type needs', () => {
    const seal = draft({ signatureType: 'seal-image', needs: { requiresPin: false, requiredPlacement: 'seal' } });
    expect(signProblems(seal)).toEqual([{ field: 'placements', key: 'sealRequired' }]);
    expect(
      signProblems({ ...seal, placements: [{ key: 'k', kind: 'seal', page: 1, rect, sealImageId: 's' }] }),
    ).toEqual([]);
    const hand = draft({ needs: { requiresPin: false, requiredPlacement: 'handwritten' } });
    expect(signProblems(hand)).toEqual([{ field: 'placements', key: 'handwrittenRequired' }]);
  });

  it('asks for the PIN and, for a proxy signature, the principal', () => {
    const proxy = draft({ signatureType: 'proxy', needs: { requiresPin: true, requiredPlacement: null } });
    expect(signProblems(proxy)).toEqual([
      { field: 'principal', key: 'principalRequired' },
      { field: 'pin', key: 'pinRequired' },
    ]);
  });
});

describe('signAttributes', () => {
  it('sends the code, placements and lockVersion of an operator signature, and no PIN', () => {
    const placements = [{ key: 'k', kind: 'seal' as const, page: 1, rect, sealImageId: 's' }];
    expect(signAttributes(draft({ twoFactor: 'sms', code: '012345', placements, pin: 'ignored' }), 3)).toEqual({
      lockVersion: 3,
      placements: [{ kind: 'seal', page: 1, rect, sealImageId: 's' }],
      code: '012345',
    });
  });

  it('sends the PIN, the principal and a trimmed comment of a proxy signature', () => {
    const proxy = draft({
      signatureType: 'proxy',
      needs: { requiresPin: true, requiredPlacement: null },
      pin: ' secret ',
      principalId: 'user-1',
      comment: '  代理で署名します ',
    });
    expect(signAttributes(proxy, 0)).toEqual({
      lockVersion: 0,
      comment: '代理で署名します',
      pin: ' secret ',
      onBehalfOfUserId: 'user-1',
    });
  });
});

describe('fieldOfPointer', () => {
  it('places a refusal on the field its pointer names', () => {
    expect(fieldOfPointer('/data/attributes/code')).toBe('code');
    expect(fieldOfPointer('/data/attributes/placements/0/rect')).toBe('placements');
    expect(fieldOfPointer('/data/attributes/onBehalfOfUserId')).toBe('principal');
    expect(fieldOfPointer('/data/attributes/lockVersion')).toBeNull();
    expect(fieldOfPointer(undefined)).toBeNull();
  });
});
