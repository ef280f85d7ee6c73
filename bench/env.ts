/** A whole-number setting of a benchmark from the environment: `fallback` when unset, an error below `min`. */
export function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

/**
 * A benchmark's own scratch database on the PostgreSQL server of BENCH_POSTGRES_URL (default the local one, as the
 * tests use it): `name` on that server, made and dropped by the benchmark, so no benchmark drops another's data.
 */
export function scratchDatabaseUrl(name: string): string {
  const url = new URL(process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${name}`;
  return url.href;
}
