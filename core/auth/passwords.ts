import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): ~25 ms here, so sign-in stays quick and brute force does not.
const BASELINE_MEMORY_KIB = 19_456;
let memoryCost = BASELINE_MEMORY_KIB;

/**
 * Sets the memory of new hashes (KEIYAKU_PASSWORD_HASH_MEMORY_KIB; null: the baseline) for the whole process. A hash
 * names its parameters, so hashes made before still verify.
 */
export function setPasswordHashMemory(kiB: number | null): void {
  memoryCost = kiB ?? BASELINE_MEMORY_KIB;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost, timeCost: 2, parallelism: 1 });
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
