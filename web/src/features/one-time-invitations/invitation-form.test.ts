import { describe, expect, it } from 'vitest';
import { blankInvite, inviteAttributes, NAME_MAX, validateInvite } from './invitation-form.ts';

const input = (patch: Partial<ReturnType<typeof blankInvite>>) => ({ ...blankInvite('ja'), ...patch });

describe('the invite form', () => {
  it('requires a name and a valid address by e-mail', () => {
    expect(validateInvite(input({}))).toEqual({ name: ['nameRequired'], email: ['emailRequired'] });
    expect(validateInvite(input({ name: '山田 花子', email: 'hanako@example' }))).toEqual({ email: ['emailInvalid'] });
    expect(validateInvite(input({ name: '山田 花子', email: ' hanako@example.com ' }))).toEqual({});
  });

  it('asks nothing by QR code but keeps the name short', () => {
    expect(validateInvite(input({ channel: 'qr' }))).toEqual({});
    expect(validateInvite(input({ channel: 'qr', name: 'x'.repeat(NAME_MAX + 1) }))).toEqual({
      name: ['nameTooLong'],
    });
  });

  it('sends trimmed attributes, and no address for a QR invitation', () => {
    expect(inviteAttributes(input({ name: ' 山田 ', email: ' a@b.jp ', locale: 'en' }))).toEqual({
      channel: 'email',
      locale: 'en',
      name: '山田',
      email: 'a@b.jp',
    });
    expect(inviteAttributes(input({ channel: 'qr', email: 'ignored@b.jp' }))).toEqual({ channel: 'qr', locale: 'ja' });
  });

  it('starts in the member language', () => {
    expect(blankInvite('en').locale).toBe('en');
    expect(blankInvite('ja').locale).toBe('ja');
  });
});
