/*
 * GET /metrics (core/http/metrics.ts): Prometheus's text format behind KEIYAKU_METRICS_TOKEN — not served without
 * one, refused without the right one (and rate limited), and once in: requests per operation, rate-limit refusals,
 * the job queue, the database pool and signing times move as the service works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { engineSign } from '../helpers/signing.ts';
import { buildPdf } from '../helpers/pdf.ts';

const TOKEN = 'metrics-token-for-the-test-0123456789';

let app: TestApp;
let plain: TestApp;

beforeAll(async () => {
  // No rate-limit scaling here: the token limit itself is under test.
  app = await startApp({ env: { KEIYAKU_METRICS_TOKEN: TOKEN, KEIYAKU_RATE_LIMIT_SCALE: '1' } });
  plain = await startApp();
});
afterAll(async () => {
  await plain?.close();
  await app?.close();
});

async function scrape(token = TOKEN, ip = '192.0.2.10') {
  const response = await fetch(`${app.url}/metrics`, {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip },
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one sample (name with its labels exactly as Prometheus prints them), or null. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe('GET /metrics', () => {
  it('is not served without KEIYAKU_METRICS_TOKEN, and refuses a wrong token', async () => {
    const none = await plain.api.call('getMetrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(none.status).toBe(404);
    expect(none.body.errors[0].code).toBe('ROUTE_NOT_FOUND');
    const wrong = await app.api.call('getMetrics', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe('UNAUTHENTICATED');
    expect((await app.api.call('getMetrics')).status).toBe(401);
  });

  it('answers the text format with requests per operation, the job queue and the database pool', async () => {
    const owner = await signedInOwner(app);
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const series = 'keiyaku_http_request_duration_seconds_count{operation="getCurrentUser",method="GET",status="2xx"}';
    const count = sample(before.text, series) ?? 0;
    for (let i = 0; i < 3; i += 1) await app.api.call('getCurrentUser', { token: owner.token });
    const after = await scrape();
    expect(sample(after.text, series)).toBe(count + 3);
    expect(after.text).toMatch(/^keiyaku_http_request_duration_seconds_bucket\{le="0\.05",operation="getCurrentUser"/m);
    // A path of no operation is counted without its path (no label per URL).
    await fetch(`${app.url}/core/v1/no-such-thing-${Date.now()}`);
    const unmatched = await scrape();
    expect(unmatched.text).toMatch(/operation="unmatched",method="GET",status="4xx"/);
    expect(unmatched.text).not.toMatch(/no-such-thing/);
    expect(sample(unmatched.text, 'keiyaku_db_pool_connections{state="used"}')).not.toBeNull();
    expect(sample(unmatched.text, 'keiyaku_pdf_tasks_pending')).not.toBeNull();
    expect(unmatched.text).toMatch(/^# TYPE keiyaku_job_queue_depth gauge/m);
    expect(unmatched.text).toMatch(/^keiyaku_process_resident_memory_bytes \d+/m);
  });

  it('counts rate-limit refusals by limit, wrong metrics tokens included', async () => {
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await scrape('a-wrong-token-of-enough-length', ip)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const text = (await scrape()).text;
    expect(sample(text, 'keiyaku_rate_limit_refusals_total{limit="metricsTokenPerIp"}')).toBeGreaterThanOrEqual(1);
  });

  it('times signatures by level and counts jobs by queue and outcome', async () => {
    const before = sample((await scrape()).text, 'keiyaku_signing_duration_seconds_count{level="B-T"}') ?? 0;
    // As the service signs: the PDF side in its worker pool, which tells the metrics.
    await engineSign(app, await buildPdf({ text: 'metrics' }), {}, app.service.deps.pdfWork);
    const text = (await scrape()).text;
    expect(sample(text, 'keiyaku_signing_duration_seconds_count{level="B-T"}')).toBe(before + 1);
    // Sign-up queued a confirmation mail: the mail job ran in this process.
    await expect
      .poll(async () => sample((await scrape()).text, 'keiyaku_jobs_total{queue="mail.send",outcome="completed"}'), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(1);
  });
});
