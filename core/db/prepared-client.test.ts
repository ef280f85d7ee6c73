/*
 * Prepared statements on request: a query with `.options({ prepare: true })` becomes a named statement on its
 * connection (seen in pg_prepared_statements), answers as the plain query would, and other queries stay unnamed.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { type Database, openDatabase } from './index.ts';
import { onPostgresServer, statementName } from './prepared-client.ts';

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
