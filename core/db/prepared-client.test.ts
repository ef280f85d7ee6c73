/*
 * Prepared statements on request: a query with `.options({ prepare: true })` becomes a named statement on its
 * connection (seen in pg_prepared_statements), answers as the plain query would, and other queries stay unnamed.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { type Database, openDatabase } from './index.ts';
import { onPostgresServer, statementName, templated } from './prepared-client.ts';

let db: Database;
let drop: () => Promise<void>;
const kind = inject('dbKind');

beforeAll(async () => {
  const isolated = await isolatedDatabase(kind, inject('dbTemplate'));
  drop = isolated.drop;
  db = await openDatabase(isolated.config);
});
afterAll(async () => {
  await db.close();
  await drop();
});

describe('prepared statements on request', () => {
  it('keeps the client known for a PostgreSQL server (advisory locks and the migration lock depend on it)', () => {
    expect(onPostgresServer(db.knex)).toBe(kind === 'postgres');
  });

  it.runIf(kind === 'postgres')('names the statement on its connection and answers as the plain query', async () => {
    await db.knex.transaction(async (trx) => {
      const query = () => trx.select(trx.raw('?::int + 1 AS n', [41]));
      const plain = await query();
      const prepared = await query().options({ prepare: true });
      expect(prepared).toEqual(plain);
      expect(await query().options({ prepare: true })).toEqual([{ n: 42 }]);
      const named = (await trx('pg_prepared_statements').select('name', 'statement')) as {
        name: string;
        statement: string;
      }[];
      const sql = query().toSQL().toNative().sql;
      expect(named).toEqual([{ name: statementName(sql), statement: sql }]);
    });
  });

  it('answers a prepared query with its bindings on either database (PGlite takes the option and ignores it)', async () => {
    expect(await db.knex.select(db.knex.raw('? AS v', ['x'])).options({ prepare: true })).toEqual([{ v: 'x' }]);
  });
});

describe('statements compiled once (templated)', () => {
  it('compiles a shape once and then only binds the values given', async () => {
    let built = 0;
    const statement = (id: string, since: Date) =>
      templated(db.knex, 'test:users-since', { id, since }, (v) => {
        built += 1;
        return db.knex('users').where('id', v.id).where('created_at', '>=', v.since).whereRaw(`status <> 'x'`);
      });
    const first = statement('00000000-0000-4000-8000-000000000001', new Date('2026-01-01T00:00:00Z')).toSQL();
    const second = statement('00000000-0000-4000-8000-000000000002', new Date('2026-02-01T00:00:00Z')).toSQL();
    expect(built).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(second.bindings).toEqual(['00000000-0000-4000-8000-000000000002', new Date('2026-02-01T00:00:00Z')]);
    expect(await statement('00000000-0000-4000-8000-000000000003', new Date(0))).toMatchObject({ rows: [] });
  });

  it('refuses a value the query transforms (it would be compiled into the shape)', () => {
    expect(() =>
      templated(db.knex, 'test:pattern', { q: 'abc' }, (v) => db.knex('users').whereILike('name', `%${v.q}%`)),
    ).toThrow(/transformed/);
  });
});
