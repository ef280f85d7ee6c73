import { type Command, InvalidArgumentError, Option } from 'commander';
import { addConnectionOptions, withApi } from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';
import {
  type BatchTarget,
  DEFAULT_CHUNK_ROWS,
  failedRowsError,
  MAX_CHUNK_ROWS,
  formatImport,
  importCsvFile,
  progressReporter,
} from './csv-batch.ts';

function chunkSize(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CHUNK_ROWS)
    throw new InvalidArgumentError('must be an integer from 1 to 1000');
  return n;
}

/** Registers `keiyaku <users|groups> import FILE [--dry-run] [--chunk-size N] [--json]` on a group. */
export function registerImport(group: Command, output: CliOutput, target: BatchTarget): void {
  addConnectionOptions(
    group
      .command('import')
      .argument('<file>', 'the CSV file (UTF-8 or Shift_JIS, header row first)')
      .description(`Add, update and delete ${target} from a CSV file; failed rows are listed with their reasons`)
      .option('--dry-run', 'check every row and report what would happen, writing nothing')
      .addOption(
        new Option(
          '--chunk-size <n>',
          `rows sent per request (default: ${DEFAULT_CHUNK_ROWS}; 1000 with --dry-run)`,
        ).argParser(chunkSize),
      )
      .option('--json', 'print the result as JSON'),
  ).action(async (file: string, options: { dryRun?: boolean; chunkSize?: number; json?: boolean; url?: string }) => {
    await withApi({ url: options.url }, async (session) => {
      const progress = progressReporter(output, Boolean(process.stderr.isTTY), `${target} import`);
      const result = await importCsvFile(session, target, file, {
        dryRun: Boolean(options.dryRun),
        // A preview cannot see the rows of earlier chunks (each is rolled back): preview as much as one request takes.
        chunkRows: options.chunkSize ?? (options.dryRun ? MAX_CHUNK_ROWS : DEFAULT_CHUNK_ROWS),
        progress,
      });
      output.out(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatImport(result, session.locale));
      if (result.counts.failed > 0) throw failedRowsError(session.locale);
    });
  });
}

/** `keiyaku users import FILE`: CSV batch editing of users (500 rows a request, progress on stderr). */
export const usersImportCommand: CliCommand = {
  group: 'users',
  groupDescription: 'Users of the organization: CSV import and export',
  register: (group, output) => registerImport(group, output, 'users'),
};
