import { afterEach, describe, expect, it } from 'vitest';
import { jwt, tokenPair } from '../testing/fixtures.ts';
import { decodeClaims, TokenStore } from './tokens.ts';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('decodeClaims', () => {
  it('gives uid as a string and exp in seconds', () => {
    const claims = decodeClaims(jwt({ exp: 1_700_000_000, uid: 42, oid: 'org-1' }));
    expect(claims.uid).toBe('42');
    expect(claims.exp).toBe(1_700_000_000);
    expect(claims.oid).toBe('org-1');
  });

  it('keeps a string uid as it is', () => {
    expect(decodeClaims(jwt({ exp: 1, uid: 'u-7' })).uid).toBe('u-7');
  });

  it('reads base64url payloads with multi-byte characters and no padding', () => {
    const claims = decodeClaims(jwt({ exp: 2, uid: 1, name: '契約の太郎' }));
    expect((claims as unknown as { name: string }).name).toBe('契約の太郎');
  });

  it("reads a one-time user's gid as the uid", () => {
    expect(decodeClaims(jwt({ exp: 3, gid: 'g-1', sid: 's-1', bf: 'f-1' })).uid).toBe('g-1');
  });

  it('refuses a token without a payload, or without exp or uid', () => {
    expect(() => decodeClaims('only-a-header')).toThrow();
    expect(() => decodeClaims(jwt({ uid: 1 }))).toThrow(/exp or uid/);
    expect(() => decodeClaims(jwt({ exp: 1 }))).toThrow(/exp or uid/);
    expect(() => decodeClaims(jwt({ exp: '1', uid: 1 }))).toThrow(/exp or uid/);
  });
});

describe('TokenStore', () => {
  it('stores the tokens in the spec shape, with the claims of the access token, in the given Storage', () => {
    const store = new TokenStore(localStorage, 'keiyaku');
    const pair = tokenPair(1_700_000_000);
    store.save(pair);
    expect(JSON.parse(localStorage.getItem('keiyaku.tokens')!)).toEqual({
      accessToken: { accessToken: pair.authorizationToken, claims: { exp: 1_700_000_000, uid: '42', name: 'a' } },
      refreshToken: { refreshToken: 'refresh-a' },
    });
    expect(store.read()?.accessToken.claims.uid).toBe('42');
    expect(sessionStorage.length).toBe(0);
  });

  it('stores an access token alone when the refresh token came as a cookie, and reads it back', () => {
    const store = new TokenStore(localStorage, 'keiyaku');
    const { authorizationToken } = tokenPair(1_700_000_000);
    store.save({ authorizationToken });
    expect(JSON.parse(localStorage.getItem('keiyaku.tokens')!)).toEqual({
      accessToken: { accessToken: authorizationToken, claims: { exp: 1_700_000_000, uid: '42', name: 'a' } },
    });
    expect(store.read()).toEqual({
      accessToken: { accessToken: authorizationToken, claims: { exp: 1_700_000_000, uid: '42', name: 'a' } },
    });
  });

  it('keeps one-time tokens and their timestamp in sessionStorage, apart from the signed-in ones', () => {
    const oneTime = new TokenStore(sessionStorage, 'keiyaku.onetime');
    oneTime.save(tokenPair(5));
    oneTime.touch(1234);
    expect(sessionStorage.getItem('keiyaku.onetime.tokens')).not.toBeNull();
    expect(sessionStorage.getItem('keiyaku.onetime.sessionTimestamp')).toBe('1234');
    expect(localStorage.length).toBe(0);
    expect(new TokenStore(localStorage, 'keiyaku').read()).toBeNull();
  });

  it('stores the activity timestamp in milliseconds and clears it', () => {
    const store = new TokenStore(localStorage, 'keiyaku');
    expect(store.timestamp()).toBeNull();
    store.touch(1_700_000_000_123);
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe('1700000000123');
    expect(store.timestamp()).toBe(1_700_000_000_123);
    store.clearTimestamp();
    expect(store.timestamp()).toBeNull();
  });

  it('clears the tokens without touching the timestamp', () => {
    const store = new TokenStore(localStorage, 'keiyaku');
    store.save(tokenPair(5));
    store.touch(10);
    store.clearTokens();
    expect(store.read()).toBeNull();
    expect(store.timestamp()).toBe(10);
  });

  it('reads nothing from malformed or incomplete stored values', () => {
    const store = new TokenStore(localStorage, 'keiyaku');
    localStorage.setItem('keiyaku.tokens', '{not json');
    expect(store.read()).toBeNull();
    localStorage.setItem('keiyaku.tokens', JSON.stringify({ accessToken: { accessToken: 'x' } }));
    expect(store.read()).toBeNull();
    const claims = { exp: 5, uid: '42' };
    localStorage.setItem(
      'keiyaku.tokens',
      JSON.stringify({ accessToken: { accessToken: 'x', claims }, refreshToken: {} }),
    );
    expect(store.read()).toBeNull();
    localStorage.setItem('keiyaku.sessionTimestamp', 'yesterday');
    expect(store.timestamp()).toBeNull();
  });
});
