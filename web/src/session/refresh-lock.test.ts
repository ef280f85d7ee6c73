import { describe, expect, it, vi } from 'vitest';
import { acrossTabs, LOCK_WAIT_MS, REFRESH_LOCK } from './refresh-lock.ts';

/** A LockManager that grants one holder at a time per name, like the browser's. */
function fakeLocks() {
  let queue: Promise<unknown> = Promise.resolve();
  const request = vi.fn((_name: string, _options: LockOptions, callback: () => Promise<unknown>) => {
    const run = queue.then(() => callback());
    queue = run.catch(() => undefined);
    return run;
  });
  return { request } as unknown as LockManager & { request: typeof request };
}

describe('acrossTabs', () => {
  it('runs each refresh under the keiyaku-refresh lock, one after another', async () => {
    const locks = fakeLocks();
    const order: string[] = [];
    const refresh = (name: string) => async () => {
      order.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`end ${name}`);
      return name;
    };
    await expect(Promise.all([acrossTabs(refresh('a'), locks), acrossTabs(refresh('b'), locks)])).resolves.toEqual([
      'a',
      'b',
    ]);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(locks.request).toHaveBeenCalledWith(REFRESH_LOCK, expect.anything(), expect.any(Function));
  });

  it('runs the refresh directly where the browser has no Web Locks', async () => {
    await expect(acrossTabs(async () => 'plain', undefined)).resolves.toBe('plain');
  });

  it(`refreshes without the lock after waiting ${LOCK_WAIT_MS} ms for a tab that never lets go`, async () => {
    const locks = {
      request: (_name: string, options: LockOptions) =>
        new Promise((_resolve, reject) =>
          options.signal!.addEventListener('abort', () => reject(options.signal!.reason)),
        ),
    } as unknown as LockManager;
    vi.useFakeTimers();
    try {
      const result = acrossTabs(async () => 'unlocked', locks);
      await vi.advanceTimersByTimeAsync(LOCK_WAIT_MS);
      await expect(result).resolves.toBe('unlocked');
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes on the failure of a refresh that held the lock, without trying again', async () => {
    const refresh = vi.fn(() => Promise.reject(new Error('REFRESH_TOKEN_INVALID')));
    await expect(acrossTabs(refresh, fakeLocks())).rejects.toThrow('REFRESH_TOKEN_INVALID');
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
