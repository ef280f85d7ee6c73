import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): ~25 ms here, so sign-in stays quick and brute force does not.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | null = null;

/** Spends the same time as a real check, so an unknown user ID answers as slowly as a known one. */
export async function verifyDecoy(password: string): Promise<void> {
  decoy ??= hashPassword('decoy-password-1');
  await verifyPassword(await decoy, password);
}
