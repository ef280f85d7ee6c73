import type { Knex } from 'knex';

/**
 * Usage counts what statements bill: RFC 3161 timestamps, and signatures per signature type
 * (`signatures.<type code>`) beside their total.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE usage_counters DROP CONSTRAINT usage_counters_metric_check');
  await knex.raw(
    `ALTER TABLE usage_counters ADD CONSTRAINT usage_counters_metric_check
       CHECK (metric IN ('documents', 'signatures', 'timestamps', 'oneTimeUsers', 'ocrPages')
              OR metric ~ '^signatures\\.[a-z][a-z0-9-]*$')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('usage_counters').whereNotIn('metric', ['documents', 'signatures', 'oneTimeUsers', 'ocrPages']).del();
  await knex.raw('ALTER TABLE usage_counters DROP CONSTRAINT usage_counters_metric_check');
  await knex.raw(
    `ALTER TABLE usage_counters ADD CONSTRAINT usage_counters_metric_check
       CHECK (metric IN ('documents', 'signatures', 'oneTimeUsers', 'ocrPages'))`,
  );
}
