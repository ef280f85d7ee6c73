import { existsSync, readFileSync } from 'node:fs';
import { addConnectionOptions, CliError, EXIT, unwrap, usageError, withApi } from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';
import { verifyCsv } from '../log-csv.ts';

const REASONS: Record<string, string> = {
  hash_mismatch: 'its content no longer gives its hash (the row was edited)',
  broken_link: 'its prev_hash is not the hash of the row before it (a row was removed, added or reordered)',
};

interface VerifyOptions {
  file?: string;
  ledger?: boolean;
  url?: string;
}

export function verifyFile(file: string, output: CliOutput): void {
  if (!existsSync(file)) throw usageError(`no such file: ${file}`);
  let verdict;
  try {
    verdict = verifyCsv(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`, EXIT.verificationFailed);
  }
  if (verdict.firstBad) {
    const { id, line, reason, detail } = verdict.firstBad;
    throw new CliError(
      `${file}: ${verdict.kind} chain broken at row id ${id} (line ${line}): ${reason}: ${detail}; ` +
        `${verdict.checked} rows before it are intact`,
      EXIT.verificationFailed,
    );
  }
  output.out(
    `${file}: ${verdict.kind} intact, ${verdict.checked} rows checked ` +
      '(the first row links to rows before the exported range, which a file cannot show)\n',
  );
}

export async function verifyOnServer(options: VerifyOptions, output: CliOutput): Promise<void> {
  const what = options.ledger ? 'sign record ledger' : 'operation log';
  await withApi({ url: options.url }, async (session) => {
    const result = options.ledger
      ? await session.client.GET('/sign-records/verification')
      : await session.client.GET('/operation-logs/verification');
    const { valid, checked, firstBadRow } = unwrap(result).data.attributes;
    if (!valid && firstBadRow) {
      throw new CliError(
        `${what} chain broken at row id ${firstBadRow.id}: ${firstBadRow.reason}: ${REASONS[firstBadRow.reason]}; ` +
          `${checked} rows before it are intact`,
        EXIT.verificationFailed,
      );
    }
    output.out(`${what} chain intact on ${session.url}: ${checked} rows checked\n`);
  });
}

/** `keiyaku log verify [--file FILE] [--ledger]`: checks the hash chain on the server, or of a downloaded CSV. */
export const logVerifyCommand: CliCommand = {
  group: 'log',
  groupDescription: 'Operation log and sign record ledger',
  register(group, output) {
    addConnectionOptions(
      group
        .command('verify')
        .description('Check the hash chain (exit 4 and the first bad row when broken)')
        .option('--file <file>', 'verify a CSV from `keiyaku log export` offline instead of asking the server')
        .option('--ledger', 'the sign record ledger instead of the operation log (server check)'),
    ).action(async (options: VerifyOptions) => {
      if (options.file) verifyFile(options.file, output);
      else await verifyOnServer(options, output);
    });
  },
};
