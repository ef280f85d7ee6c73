import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { type CliCommand, type CliOutput, processOutput } from './command.ts';
import { loginCommand } from './commands/auth-login.ts';
import { logoutCommand } from './commands/auth-logout.ts';
import { logExportCommand } from './commands/log-export.ts';
import { logVerifyCommand } from './commands/log-verify.ts';
import { ledgerVerifyCommand } from './commands/ledger-verify.ts';
import { mailOutboxCommand } from './commands/mail-outbox.ts';
import { groupsCsvCommand } from './commands/groups-csv.ts';
import { usersExportCommand } from './commands/users-export.ts';
import { usersImportCommand } from './commands/users-import.ts';
import { orgsCommand } from './commands/orgs.ts';
import { billingCreditNoteCommand } from './commands/billing-credit-note.ts';
import { plansListCommand } from './commands/plans.ts';
import { CliError, EXIT } from './errors.ts';

/** Every command of `keiyaku`; a new one is a file in cli/commands/ listed here. */
export const COMMANDS: CliCommand[] = [
  mailOutboxCommand,
  loginCommand,
  logoutCommand,
  logExportCommand,
  logVerifyCommand,
  ledgerVerifyCommand,
  usersImportCommand,
  usersExportCommand,
  groupsCsvCommand,
  plansListCommand,
  orgsCommand,
  billingCreditNoteCommand,
];

/** Builds the `keiyaku` program with each command under its group (`keiyaku mail outbox`). */
export function buildProgram(commands: CliCommand[] = COMMANDS, output: CliOutput = processOutput): Command {
  const program = new Command('keiyaku')
    .description('Keiyaku administration: mail, logs, the sign record ledger and batch edits')
    .configureOutput({ writeOut: output.out, writeErr: output.err })
    .showHelpAfterError()
    // Usage errors throw (and subcommands inherit this) so main() decides the exit code instead of commander.
    .exitOverride();
  for (const command of commands) {
    // Subcommands inherit the output configuration from the program.
    const group =
      program.commands.find((c) => c.name() === command.group) ??
      program.command(command.group).description(command.groupDescription);
    command.register(group, output);
  }
  return program;
}

/**
 * Runs the command line. A failure prints its message and sets the exit code: 1 API error, 2 usage error, 3 not
 * signed in, 4 verification failed (cli/errors.ts).
 */
export async function main(argv: string[] = process.argv, output: CliOutput = processOutput): Promise<void> {
  try {
    await buildProgram(COMMANDS, output).parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error, output);
  }
}

/** Prints a failure (commander has already printed its own) and chooses the exit code. */
function exitCodeOf(error: unknown, output: CliOutput): number {
  if (error instanceof CommanderError) {
    // --help and --version end through here too, successfully.
    return error.exitCode === 0 ? 0 : EXIT.usage;
  }
  const message = (error as Error).message ?? String(error);
  output.err(`keiyaku: ${message.replace(/\n/g, '\n  ')}\n`);
  return error instanceof CliError ? error.exitCode : EXIT.apiError;
}

const invokedDirectly =
  process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) await main();
