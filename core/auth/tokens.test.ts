/*
 * Access tokens: a token verified once is answered from memory until it expires, and the memory never turns a bad
 * token good — expiry is checked on every use, a tampered or foreign token is refused every time.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens.ts';

const claims = { uid: 'user-1', oid: 'org-1', sid: 'session-1' };
const issuedAt = new Date('2026-11-28T00:00:00Z');
const at = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);

const code = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { code?: string }) => error.code,
  );

describe('TokenSigner.verify', () => {
  it('answers a known token until the second it expires, then TOKEN_EXPIRED every time', async () => {
    const signer = new TokenSigner(randomBytes(32), 600);
    const token = await signer.issue(claims, issuedAt);
    expect(await signer.verify(token, at(1))).toMatchObject(claims);
    expect(await signer.verify(token, at(599.999))).toMatchObject(claims);
    expect(await code(signer.verify(token, at(600)))).toBe('TOKEN_EXPIRED');
    expect(await code(signer.verify(token, at(600)))).toBe('TOKEN_EXPIRED');
  });

  it('refuses an expired token it never saw, like one it knew', async () => {
    const signer = new TokenSigner(randomBytes(32), 600);
    const token = await signer.issue(claims, issuedAt);
    expect(await code(signer.verify(token, at(601)))).toBe('TOKEN_EXPIRED');
  });

  it('never accepts a tampered token or one of another key, before or after verifying the genuine one', async () => {
    const signer = new TokenSigner(randomBytes(32), 600);
    const other = new TokenSigner(randomBytes(32), 600);
    const token = await signer.issue(claims, issuedAt);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), uid: 'admin' }),
    ).toString('base64url');
    const tampered = `${header}.${forged}.${signature}`;
    expect(await code(signer.verify(tampered, at(1)))).toBe('UNAUTHENTICATED');
    expect(await signer.verify(token, at(1))).toMatchObject(claims);
    expect(await code(signer.verify(tampered, at(2)))).toBe('UNAUTHENTICATED');
    expect(await code(other.verify(token, at(2)))).toBe('UNAUTHENTICATED');
  });

  it('hands out claims no caller can change for the next one', async () => {
    const signer = new TokenSigner(randomBytes(32), 600);
    const token = await signer.issue(claims, issuedAt);
    const first = await signer.verify(token, at(1));
    expect(() => {
      (first as { uid: string }).uid = 'someone-else';
    }).toThrow();
    expect((await signer.verify(token, at(2))).uid).toBe('user-1');
  });
});
