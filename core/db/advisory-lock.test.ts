import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { exclusively } from './advisory-lock.ts';
import { type Database, openDatabase } from './index.ts';

// Two pools on one database stand for two worker processes: an advisory lock belongs to a connection (a session).
let first: Database;
let second: Database;
let drop: () => Promise<void>;
const kind = inject('dbKind');

beforeAll(async () => {
  const isolated = await isolatedDatabase(kind, inject('dbTemplate'));
  drop = isolated.drop;
  first = await openDatabase(isolated.config);
  second = kind === 'postgres' ? await openDatabase(isolated.config) : first;
});
afterAll(async () => {
  if (second !== first) await second.close();
  await first.close();
  await drop();
});

describe('exclusively', () => {
  it.runIf(kind === 'postgres')(
    'runs periodic work in one process at a time and lets the next tick run it',
    async () => {
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const one = exclusively(first.knex, 'sweep', async () => {
        started();
        await held;
        return 'first';
      });
      await running;

      let ranSecond = false;
      const skipped = await exclusively(second.knex, 'sweep', async () => {
        ranSecond = true;
      });
      expect(skipped).toEqual({ ran: false });
      expect(ranSecond).toBe(false);
      // Work of another name is not held up.
      expect(await exclusively(second.knex, 'renewals', async () => 'other')).toEqual({ ran: true, result: 'other' });

      finish();
      expect(await one).toEqual({ ran: true, result: 'first' });
      expect(await exclusively(second.knex, 'sweep', async () => 'second')).toEqual({ ran: true, result: 'second' });
    },
  );

  it('releases the lock when the work fails', async () => {
    await expect(
      exclusively(first.knex, 'failing', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await exclusively(second.knex, 'failing', async () => 42)).toEqual({ ran: true, result: 42 });
  });
});
