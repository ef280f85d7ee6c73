/*
 * When billing started: the JST month of the plugin's first start, recorded once (later starts keep it). The
 * usage counters of that month exist only from that instant on (an upgraded deployment counted nothing before), so
 * that month and every month before it are never closed: billing begins with the first whole month after it.
 */
import type { Knex } from 'knex';
import { tokyoMonth } from '../../core/plugins/index.ts';

/** The month billing started in; records the current one (`now`, JST) if none is recorded yet. */
export async function billingStartMonth(db: Knex, now: Date): Promise<string> {
  await db('billing_start')
    .insert({ id: 'start', month: tokyoMonth(now), started_at: now })
    .onConflict('id')
    .ignore();
  const row = await db('billing_start').where({ id: 'start' }).first<{ month: string }>('month');
  return row.month;
}
