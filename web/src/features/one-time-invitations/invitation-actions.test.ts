import { describe, expect, it } from 'vitest';
import { invitationActions } from './invitation-actions.ts';

describe('the actions of an invitation', () => {
  it('offers re-send and cancel while an e-mail invitation is live, registered or not', () => {
    expect(invitationActions({ status: 'invited', channel: 'email', email: 'a@b.jp' })).toEqual(['resend', 'cancel']);
    expect(invitationActions({ status: 'registered', channel: 'email', email: 'a@b.jp' })).toEqual([
      'resend',
      'cancel',
    ]);
  });

  it('offers the QR screen until the QR guest has entered an address, then re-send like any invitation', () => {
    expect(invitationActions({ status: 'invited', channel: 'qr', email: null })).toEqual(['showQr', 'cancel']);
    expect(invitationActions({ status: 'invited', channel: 'qr', email: 'a@b.jp' })).toEqual(['resend', 'cancel']);
  });

  it('offers only re-invite once cancelled', () => {
    expect(invitationActions({ status: 'cancelled', channel: 'qr', email: null })).toEqual(['reinvite']);
  });
});
