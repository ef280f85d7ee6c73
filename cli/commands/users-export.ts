import type { Command } from 'commander';
import { addConnectionOptions, download, usageError, withApi } from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';
import type { BatchTarget } from './csv-batch.ts';

/** The filters each export accepts, as `--filter key=value`. */
const FILTERS: Record<BatchTarget, readonly string[]> = {
  users: ['q', 'groupId', 'roleId', 'status'],
  groups: ['q'],
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--filter q=tanaka --filter groupId=…` to the API's `filter[q]`, `filter[groupId]` query. */
export function filterQuery(target: BatchTarget, filters: string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const filter of filters) {
    const at = filter.indexOf('=');
    const key = at > 0 ? filter.slice(0, at) : '';
    if (!FILTERS[target].includes(key)) {
      throw usageError(`--filter ${filter}: use KEY=VALUE with KEY one of ${FILTERS[target].join(', ')}`);
    }
    query[`filter[${key}]`] = filter.slice(at + 1);
  }
  return query;
}

/** Registers `keiyaku <users|groups> export [--out FILE] [--filter KEY=VALUE ...]` on a group. */
export function registerExport(group: Command, output: CliOutput, target: BatchTarget): void {
  addConnectionOptions(
    group
      .command('export')
      .description(`Download ${target} as CSV in the import format (at most 1,000; narrow with --filter)`)
      .option('--out <file>', "where to write: a file, or '-' for stdout (default: the server's file name)")
      .option('--filter <key=value>', `narrow the export (${FILTERS[target].join(', ')}); repeatable`, collect, []),
  ).action(async (options: { out?: string; filter: string[]; url?: string }) => {
    const query = filterQuery(target, options.filter);
    await withApi({ url: options.url }, async (session) => {
      const path = target === 'users' ? '/batch/users' : '/batch/groups';
      const result = await download(session, path, query, options.out, output);
      if (result.target !== '-') output.out(`Wrote ${result.bytes} bytes to ${result.target}\n`);
    });
  });
}

/** `keiyaku users export`: the users as CSV, ready to edit and import again. */
export const usersExportCommand: CliCommand = {
  group: 'users',
  groupDescription: 'Users of the organization: CSV import and export',
  register: (group, output) => registerExport(group, output, 'users'),
};
