import type { Command } from 'commander';

/** Where a command writes; tests hand in their own to read what was printed. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** One `keiyaku <group> <name>` command, kept in its own file under cli/commands/. */
export interface CliCommand {
  /** The first word (`mail`, `log`, `users`); commands of one group share it. */
  group: string;
  groupDescription: string;
  /**
   * Adds the command (its options and action) to its group. A command of one word (`keiyaku login`) adds its
   * options and action to the group command itself.
   */
  register(group: Command, output: CliOutput): void;
}
