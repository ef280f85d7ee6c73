import { Blob as NodeBlob } from 'node:buffer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrowserRequest, tokenPair } from '../../../testing/fixtures.ts';
import { rowReasons } from '../components/row-reasons.ts';
import type { importCsv as ImportCsvFn } from './import-csv.ts';

/** The client is imported after fetch is stubbed (openapi-fetch takes fetch when the client is created). */
type ImportCsv = typeof ImportCsvFn;

interface Sent {
  method: string;
  url: string;
  contentType: string | null;
  body: string;
}

const sent: Sent[] = [];
const RESULT = {
  data: {
    type: 'BatchImport',
    attributes: {
      target: 'users',
      dryRun: true,
      counts: { total: 1, added: 0, updated: 0, deleted: 0, unchanged: 0, failed: 1 },
      rows: [
        {
          line: 2,
          operation: 'add',
          key: 'tanaka',
          outcome: 'failed',
          errors: [
            {
              code: 'BATCH_UNKNOWN_GROUP',
              column: 'groups',
              messages: { ja: 'グループ「X」が見つかりません。', en: 'Group "X" was not found.' },
            },
            { code: 'BATCH_ROW_FIELD_COUNT', column: null, messages: { ja: '項目数', en: 'field count' } },
          ],
        },
      ],
    },
  },
};

let importCsv: ImportCsv;

beforeAll(async () => {
  vi.stubGlobal('Request', BrowserRequest);
  vi.stubGlobal('fetch', async (input: Request) => {
    sent.push({
      method: input.method,
      url: new URL(input.url).pathname + new URL(input.url).search,
      contentType: input.headers.get('content-type'),
      body: await input.text(),
    });
    return new Response(JSON.stringify(RESULT), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  localStorage.setItem(
    'keiyaku.tokens',
    JSON.stringify({
      accessToken: {
        accessToken: tokenPair(4_000_000_000).authorizationToken,
        claims: { exp: 4_000_000_000, uid: '1' },
      },
      refreshToken: { refreshToken: 'r' },
    }),
  );
  localStorage.setItem('keiyaku.sessionTimestamp', String(Date.now()));
  ({ importCsv } = await import('./import-csv.ts'));
});

afterAll(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('batch import client', () => {
  it('sends the file itself as text/csv with the dryRun flag and returns the result attributes', async () => {
    // Node's Blob: jsdom's is not one fetch's Request can read (a browser sends its own File the same way).
    const file = new NodeBlob(['operation,loginId\r\nadd,tanaka\r\n'], { type: 'text/csv' }) as unknown as Blob;
    const result = await importCsv({ target: 'users', file, dryRun: true });
    expect(sent).toEqual([
      {
        method: 'POST',
        url: '/core/v1/batch/users?dryRun=true',
        contentType: 'text/csv',
        body: 'operation,loginId\r\nadd,tanaka\r\n',
      },
    ]);
    expect(result.counts.failed).toBe(1);
  });

  it("lists a failed row's reasons in the user's language, each after its column", () => {
    const row = RESULT.data.attributes.rows[0] as Parameters<typeof rowReasons>[0];
    expect(rowReasons(row, 'en')).toEqual(['groups: Group "X" was not found.', 'field count']);
    expect(rowReasons(row, 'ja')).toEqual(['groups: グループ「X」が見つかりません。', '項目数']);
  });
});
