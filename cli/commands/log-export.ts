import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addConnectionOptions, download, usageError, withApi } from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';

/** The server's limit on one download (the spec's "Log output range at most 31 days"). */
export const MAX_RANGE_DAYS = 31;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

interface ExportOptions {
  from: string;
  to: string;
  out?: string;
  ledger?: boolean;
  split?: boolean;
  url?: string;
}

function checkBound(name: string, value: string): void {
  if (!DATE.test(value) && !DATE_TIME.test(value)) {
    throw usageError(`--${name} must be a date (YYYY-MM-DD) or a date-time with offset (2026-11-01T09:00:00+09:00)`);
  }
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Splits an inclusive date range into pieces of at most 31 days, in order. */
export function splitRange(from: string, to: string): { from: string; to: string }[] {
  const pieces: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = addDays(start, MAX_RANGE_DAYS)) {
    const end = addDays(start, MAX_RANGE_DAYS - 1);
    pieces.push({ from: start, to: end < to ? end : to });
  }
  return pieces;
}

/** Drops the BOM and the header line of a piece after the first, so the pieces make one file. */
function withoutHeader(csv: string): string {
  return csv.slice(csv.indexOf('\r\n') + 2);
}

async function exportLog(options: ExportOptions, output: CliOutput): Promise<void> {
  checkBound('from', options.from);
  checkBound('to', options.to);
  const route = options.ledger ? '/sign-records/download' : '/operation-logs/download';
  const what = options.ledger ? 'sign record ledger' : 'operation log';
  await withApi({ url: options.url }, async (session) => {
    if (!options.split) {
      const result = await download(session, route, { from: options.from, to: options.to }, options.out, output);
      if (result.target !== '-') output.out(`Saved the ${what} to ${result.target} (${result.bytes} bytes)\n`);
      return;
    }
    if (!DATE.test(options.from) || !DATE.test(options.to)) throw usageError('--split works with dates (YYYY-MM-DD)');
    const pieces = splitRange(options.from, options.to);
    const folder = mkdtempSync(path.join(tmpdir(), 'keiyaku-export-'));
    try {
      const combined = path.join(folder, 'combined.csv');
      for (const [index, piece] of pieces.entries()) {
        const file = path.join(folder, `${index}.csv`);
        await download(session, route, piece, file, output);
        const text = readFileSync(file, 'utf8');
        if (index === 0) writeFileSync(combined, text);
        else appendFileSync(combined, withoutHeader(text));
        output.err(`${what}: ${piece.from}..${piece.to} done (${index + 1}/${pieces.length})\n`);
      }
      const name = options.ledger ? 'sign-records' : 'operation-logs';
      const compact = (d: string) => d.replace(/-/g, '');
      const target = options.out ?? `${name}_${compact(options.from)}-${compact(options.to)}.csv`;
      if (target === '-') output.out(readFileSync(combined, 'utf8'));
      else {
        writeFileSync(target, readFileSync(combined));
        output.out(`Saved the ${what} to ${target} (${pieces.length} downloads)\n`);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

/** `keiyaku log export --from --to [--out FILE] [--ledger] [--split]`: downloads the CSV of a range. */
export const logExportCommand: CliCommand = {
  group: 'log',
  groupDescription: 'Operation log and sign record ledger',
  register(group, output) {
    addConnectionOptions(
      group
        .command('export')
        .description(
          'Download the operation log (or with --ledger the sign record ledger) of a range of at most 31 days as CSV',
        )
        .requiredOption('--from <date>', 'first day, YYYY-MM-DD (Japan time) or an RFC 3339 date-time')
        .requiredOption('--to <date>', 'last day (inclusive), YYYY-MM-DD or an RFC 3339 date-time')
        .option('--out <file>', "where to save; '-' for standard output (default: the server's file name)")
        .option('--ledger', 'the sign record (seal) ledger instead of the operation log')
        .option('--split', 'download a longer range of dates in 31-day pieces and join them into one file'),
    ).action((options: ExportOptions) => exportLog(options, output));
  },
};
