import { describe, expect, it } from 'vitest';
import type { User } from './api/get-user.ts';
import { availableActions } from './actions.ts';

function user(overrides: Partial<User['attributes']> = {}): User {
  return {
    type: 'User',
    id: 'u1',
    attributes: {
      loginId: 'tanaka01',
      name: '田中 一郎',
      email: 'tanaka@example.com',
      subEmails: [],
      mobilePhone: null,
      locale: 'ja',
      isOwner: false,
      isAdmin: false,
      status: 'active',
      locked: false,
      lockedByAdmin: false,
      emailBlocked: false,
      mustChangePassword: false,
      systemLinkId: null,
      groups: [],
      roles: [],
      lockVersion: 0,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      ...overrides,
    },
  };
}

describe('availableActions', () => {
  it('offers lock, deactivate, re-send and delete for an active user', () => {
    expect(availableActions(user(), false)).toEqual(['lock', 'deactivate', 'resendInvitation', 'delete']);
  });

  it('offers unlock, reactivate and unblock e-mail for a locked, deactivated user with a blocked address', () => {
    expect(availableActions(user({ locked: true, status: 'deactivated', emailBlocked: true }), false)).toEqual([
      'unlock',
      'reactivate',
      'unblock-email',
      'delete',
    ]);
  });

  it('never offers to delete, deactivate or lock yourself or the owner', () => {
    for (const [target, isSelf] of [
      [user(), true],
      [user({ isOwner: true, isAdmin: true }), false],
    ] as const) {
      const actions = availableActions(target, isSelf);
      expect(actions).not.toContain('delete');
      expect(actions).not.toContain('deactivate');
      expect(actions).not.toContain('lock');
      expect(actions).toContain('resendInvitation');
    }
  });
});
