import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordHashMemory, verifyPassword } from './passwords.ts';

// The setting is the process's: a service started earlier in this worker may have made it lighter.
beforeEach(() => setPasswordHashMemory(null));
afterEach(() => setPasswordHashMemory(null));

describe('password hashes', () => {
  it("are argon2id with OWASP's baseline (19 MiB, 2 passes) unless set, and verify across settings", async () => {
    const baseline = await hashPassword('correct horse 1');
    expect(baseline).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    setPasswordHashMemory(1024);
    const light = await hashPassword('correct horse 2');
    expect(light).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=2\$/);
    // A hash names its parameters: one made before a change still verifies after it.
    expect(await verifyPassword(baseline, 'correct horse 1')).toBe(true);
    expect(await verifyPassword(light, 'correct horse 2')).toBe(true);
    expect(await verifyPassword(light, 'correct horse 1')).toBe(false);
  });
});
