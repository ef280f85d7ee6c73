import { describe, expect, it } from 'vitest';
import en from '../../web/src/features/batch/i18n/en.json' with { type: 'json' };
import ja from '../../web/src/features/batch/i18n/ja.json' with { type: 'json' };
import {
  exact,
  type Language,
  MOBILE,
  screenshot,
  TEXTS,
  useApp,
  useBrowser,
  type Viewport,
} from '../helpers/browser.ts';

// The CSV batch editing screen in chromium against the real service: upload through the file input, preview,
// apply, result; the API only prepares the organization and checks what the server ended up with.

const app = useApp();
const browser = useBrowser();

async function openScreen(options: { language?: Language; viewport?: Viewport } = {}) {
  const title = options.language === 'en' ? en.title : ja.title;
  const { org, pair, page } = await browser.openAsOwner({
    app,
    ...options,
    path: '/organizations/settings/batch',
    heading: title,
  });
  const groups = await app.api.call('listGroups', { token: pair.authorizationToken });
  const group = groups.body.data[0].attributes.name as string;
  return { org, pair, page, group };
}

const csvFile = (lines: string[]) => ({
  name: 'users.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`${lines.join('\r\n')}\r\n`),
});

describe('CSV batch editing screen', () => {
  it("a CSV import with one bad row shows that row's reason in the preview and in the result", async () => {
    const { org, page, group } = await openScreen();
    const [good, bad] = [`${org.loginId}-a`, `${org.loginId}-b`];
    await page
      .getByLabel(ja.fileLabel, exact)
      .setInputFiles(
        csvFile([
          'operation,loginId,name,email,groups',
          `add,${good},山田 花子,${good}@example.com,${group}`,
          `add,${bad},佐藤 次郎,${bad}@example.com,存在しない部`,
        ]),
      );
    await page.getByRole('button', { name: ja.previewButton, exact: true }).click();
    const reason = 'groups: グループ「存在しない部」が見つかりません。';
    const preview = page.getByRole('region', { name: ja.tableLabel });
    await preview.getByRole('row').filter({ hasText: bad }).getByText(reason, exact).waitFor();
    await preview.getByRole('row').filter({ hasText: good }).getByText(ja.outcomes.added, exact).waitFor();
    await page.getByText(ja.previewFailedNote, exact).waitFor();
    // Nothing is written by the preview.
    const before = await app.service.deps.knex('users').whereIn('login_id', [good, bad]);
    expect(before).toEqual([]);

    await page.getByRole('button', { name: ja.applyButton, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: ja.resultTitle, exact: true }).waitFor();
    await page.getByRole('alert').filter({ hasText: TEXTS.ja.errors.BATCH_ROWS_FAILED }).waitFor();
    const failed = page.getByRole('region', { name: ja.failedRowsTitle });
    await failed.getByRole('row').filter({ hasText: bad }).getByText(reason, exact).waitFor();
    expect(await failed.getByRole('row').filter({ hasText: good }).count()).toBe(0);
    await screenshot(page, 'csv-batch-result');
    const after = await app.service.deps.knex('users').whereIn('login_id', [good, bad]).pluck('login_id');
    expect(after).toEqual([good]);
  });

  it('a file with a bad header is refused as a whole with its message, in English on a phone', async () => {
    const { page } = await openScreen({ language: 'en', viewport: MOBILE });
    await page.getByLabel(en.fileLabel, exact).setInputFiles(csvFile(['operation,shoeSize', 'add,42']));
    await page.getByRole('button', { name: en.previewButton, exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The header row of the CSV file is invalid (shoeSize).' })
      .waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
  });

  it('downloads the users as CSV', async () => {
    const { org, page } = await openScreen();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ja.exportButton, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{8}\.csv$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.startsWith('\uFEFFoperation,loginId')).toBe(true);
    expect(text).toContain(`update,${org.loginId},`);
  });
});
