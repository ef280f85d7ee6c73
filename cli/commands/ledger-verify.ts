import { addConnectionOptions } from '../api.ts';
import type { CliCommand } from '../command.ts';
import { verifyFile, verifyOnServer } from './log-verify.ts';

/**
 * `keiyaku ledger verify [--file FILE]`: the sign record (seal) ledger's hash chain, re-computed on the server, or
 * of a CSV saved with `keiyaku log export --ledger` (exit 4 and the first bad row when broken).
 */
export const ledgerVerifyCommand: CliCommand = {
  group: 'ledger',
  groupDescription: 'Sign record (seal) ledger',
  register(group, output) {
    addConnectionOptions(
      group
        .command('verify')
        .description('Check the sign record ledger hash chain (exit 4 and the first bad row when broken)')
        .option(
          '--file <file>',
          'verify a CSV from `keiyaku log export --ledger` offline instead of asking the server',
        ),
    ).action(async (options: { file?: string; url?: string }) => {
      if (options.file) verifyFile(options.file, output);
      else await verifyOnServer({ ...options, ledger: true }, output);
    });
  },
};
