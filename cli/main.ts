import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { type CliCommand, type CliOutput, processOutput } from './command.ts';
import { mailOutboxCommand } from './commands/mail-outbox.ts';

/** Every command of `keiyaku`; a new one is a file in cli/commands/ listed here. */
export const COMMANDS: CliCommand[] = [mailOutboxCommand];

/** Builds the `keiyaku` program with each command under its group (`keiyaku mail outbox`). */
export function buildProgram(commands: CliCommand[] = COMMANDS, output: CliOutput = processOutput): Command {
  const program = new Command('keiyaku')
    .description('Keiyaku administration: mail, logs and batch edits')
    .configureOutput({ writeOut: output.out, writeErr: output.err })
    .showHelpAfterError();
  for (const command of commands) {
    // Subcommands inherit the output configuration from the program.
    const group =
      program.commands.find((c) => c.name() === command.group) ??
      program.command(command.group).description(command.groupDescription);
    command.register(group, output);
  }
  return program;
}

/** Runs the command line; a failure prints one line and sets exit code 1. */
export async function main(argv: string[] = process.argv, output: CliOutput = processOutput): Promise<void> {
  try {
    await buildProgram(COMMANDS, output).parseAsync(argv);
  } catch (error) {
    output.err(`keiyaku: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

const invokedDirectly =
  process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) await main();
