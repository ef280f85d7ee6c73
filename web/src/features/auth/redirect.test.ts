import { describe, expect, it } from 'vitest';
import { afterSignIn, afterSignInWithInvitation, safeRedirect, withInvitation } from './redirect.ts';

describe('safeRedirect', () => {
  it.each([
    ['/organizations/workspaces', '/organizations/workspaces'],
    ['/business-flows/42?tab=documents#top', '/business-flows/42?tab=documents#top'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    [undefined],
    [''],
    ['https://evil.example/'],
    ['//evil.example/path'],
    ['/\\evil.example'],
    ['/\t/evil.example'],
    ['/a/..//evil.example'],
    ['javascript:alert(1)'],
    ['organizations'],
    ['/login'],
    ['/login?redirect=%2F'],
  ])('falls back to the home page for %s', (input) => {
    expect(safeRedirect(input)).toBe('/');
  });
});

describe('withInvitation', () => {
  it('adds the invitation token to the target query', () => {
    expect(withInvitation('/', 'abc')).toBe('/?invitationToken=abc');
    expect(withInvitation('/business-flows/1?x=1', 'a b')).toBe('/business-flows/1?x=1&invitationToken=a+b');
  });

  it('leaves the target alone without a token', () => {
    expect(withInvitation('/organizations/settings', undefined)).toBe('/organizations/settings');
  });
});

describe('afterSignIn', () => {
  it('combines a safe redirect with the invitation', () => {
    expect(afterSignIn({ redirect: '//evil.example', invitationToken: 'inv' })).toBe('/?invitationToken=inv');
    expect(afterSignIn({ redirect: '/organizations/workspaces' })).toBe('/organizations/workspaces');
  });
});

describe('afterSignInWithInvitation', () => {
  it('returns to the join page the sign-in came from, with the invitation', () => {
    expect(afterSignInWithInvitation({ redirect: '/workspaces/w-1/join', invitationToken: 'inv' })).toBe(
      '/workspaces/w-1/join?invitationToken=inv',
    );
  });

  it('goes to the join page when only the token is known (the guard sends no redirect)', () => {
    expect(afterSignInWithInvitation({ invitationToken: 'inv' })).toBe(
      '/workspaces/invitation/join?invitationToken=inv',
    );
  });

  it('is afterSignIn without an invitation', () => {
    expect(afterSignInWithInvitation({ redirect: '/organizations/workspaces' })).toBe('/organizations/workspaces');
  });
});
