import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { createSecrets } from '../crypto/secrets.ts';
import { compactVerify, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../http/errors.ts';

const ISSUER = 'keiyaku';
const AUDIENCE = 'keiyaku-api';
/** Verified tokens kept per process (a few hundred bytes each). */
const VERIFIED_TOKENS_KEPT = 10_000;

/** Claims of our access tokens: `uid` is the user id as a string, `exp` is in seconds. */
export interface AccessClaims {
  uid: string;
  oid: string;
  sid: string;
  exp: number;
  iat: number;
}

/** Issues and checks access tokens with a key derived from the master key (HS256). */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(
    masterKey: Buffer,
    private readonly ttlSeconds: number,
  ) {
    this.key = new Uint8Array(hkdfSync('sha256', masterKey, 'keiyaku', 'access-token-signing', 32));
  }

  async issue(claims: { uid: string; oid: string; sid: string }, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ uid: claims.uid, oid: claims.oid, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.uid)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.key);
  }

  /**
   * Tokens whose signature, issuer and audience checked out, with their claims: a signed-in client sends the same
   * token with every request until it expires, and verifying it again (HMAC through WebCrypto, a thread-pool round
   * trip) was 7 % of the CPU of a list request. Expiry is checked on every use; revocation is the session's business
   * (the principal cache answers for it), not the token's. Bounded: the oldest entry goes first.
   */
  private readonly verified = new Map<string, AccessClaims>();

  /** Verifies signature, issuer, audience and expiry (seconds, no skew). */
  async verify(token: string, now: Date): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > now.getTime()) return known;
      this.verified.delete(token);
      throw new AppError('TOKEN_EXPIRED');
    }
    const claims = await this.verifyToken(token, now);
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, Object.freeze(claims));
    return claims;
  }

  private async verifyToken(token: string, now: Date): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: now,
        clockTolerance: 0,
      });
      return payload as unknown as AccessClaims;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
      throw new AppError('UNAUTHENTICATED', { cause: error });
    }
  }

  /** Verifies only that we issued the token; refresh accepts an expired one. */
  async verifyIgnoringExpiry(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await compactVerify(token, this.key, { algorithms: ['HS256'] });
      const claims = JSON.parse(new TextDecoder().decode(payload)) as AccessClaims & { iss: string; aud: string };
      if (claims.iss !== ISSUER || claims.aud !== AUDIENCE) throw new Error('foreign token');
      return claims;
    } catch (error) {
      throw new AppError('REFRESH_TOKEN_INVALID', { cause: error });
    }
  }
}

/** A new opaque secret (refresh tokens, reset links): 256 bits, URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Opaque tokens are stored only as their SHA-256. */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The sealer of the successor of one rotated refresh token: its key derives from that (never stored) token. */
const successorSecrets = (rotatedToken: string) => createSecrets(rotatedToken, 'refresh-token-successor');

/**
 * Encrypts the refresh token issued in exchange for `rotatedToken` under a key only its holder can derive, bound to
 * the rotated row (`rowId`).
 */
export function sealSuccessor(rotatedToken: string, rowId: string, successor: string): Buffer {
  return Buffer.from(successorSecrets(rotatedToken).seal(Buffer.from(successor, 'utf8'), rowId));
}

/** Decrypts what {@link sealSuccessor} sealed; null when the token, the row or the bytes do not match. */
export function openSuccessor(rotatedToken: string, rowId: string, sealed: Buffer): string | null {
  try {
    return Buffer.from(successorSecrets(rotatedToken).open(sealed, rowId)).toString('utf8');
  } catch {
    return null;
  }
}
