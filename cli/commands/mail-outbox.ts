import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { type AddressObject, simpleParser } from 'mailparser';
import { loadConfig } from '../../core/config.ts';
import type { CliCommand } from '../command.ts';

/** One mail of the local outbox, as the command prints it. */
export interface OutboxMail {
  /** The mail's id: the file name without `.eml`. */
  id: string;
  date: string | null;
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** The folder the embedded mail transport writes to: `<KEIYAKU_DATA_DIR or ./data>/outbox`. */
export function outboxFolder(env: NodeJS.ProcessEnv = process.env): string {
  // Only the configuration is read: the embedded PGlite is single-process and the server may be running.
  return path.join(loadConfig(env).dataDir, 'outbox');
}

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ');

/** Parses the outbox's `.eml` files, newest first (Date header, then file time), at most `limit` of them. */
export async function readOutbox(folder: string, limit: number): Promise<OutboxMail[]> {
  if (!existsSync(folder)) return [];
  // `.eml.tmp` files are being written: the transport renames them when complete.
  const files = readdirSync(folder).filter((name) => name.endsWith('.eml'));
  const mails = await Promise.all(
    files.map(async (name) => {
      const file = path.join(folder, name);
      const parsed = await simpleParser(readFileSync(file));
      const mail: OutboxMail = {
        id: name.slice(0, -'.eml'.length),
        date: parsed.date ? parsed.date.toISOString() : null,
        from: addresses(parsed.from),
        to: addresses(parsed.to),
        subject: parsed.subject ?? '',
        text: (parsed.text ?? '').trimEnd(),
      };
      return { mail, sortKey: [parsed.date?.getTime() ?? 0, statSync(file).mtimeMs] as const };
    }),
  );
  return mails
    .sort((a, b) => b.sortKey[0] - a.sortKey[0] || b.sortKey[1] - a.sortKey[1] || b.mail.id.localeCompare(a.mail.id))
    .slice(0, limit)
    .map((entry) => entry.mail);
}

/** The human-readable listing: date, recipient, subject and the whole text, so links can be followed. */
export function formatOutbox(mails: OutboxMail[], folder: string): string {
  if (mails.length === 0) return `No mail in ${folder}\n`;
  const rule = `${'-'.repeat(72)}\n`;
  return mails
    .map((mail) =>
      [`Date:    ${mail.date ?? '(none)'}`, `To:      ${mail.to}`, `Subject: ${mail.subject}`, '', mail.text, ''].join(
        '\n',
      ),
    )
    .map((block) => rule + block)
    .join('');
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

/** `keiyaku mail outbox [--limit N] [--json]`: prints the mail the embedded default kept instead of sending. */
export const mailOutboxCommand: CliCommand = {
  group: 'mail',
  groupDescription: 'Mail the service sends',
  register(group, output) {
    group
      .command('outbox')
      .description('Print the mail in the local outbox (used when SMTP_URL is not set), newest first')
      .addOption(new Option('--limit <n>', 'print at most N mails').argParser(positiveInteger).default(20))
      .option('--json', 'print a JSON array instead of text')
      .action(async (options: { limit: number; json?: boolean }) => {
        const folder = outboxFolder();
        const mails = await readOutbox(folder, options.limit);
        output.out(options.json ? `${JSON.stringify(mails, null, 2)}\n` : formatOutbox(mails, folder));
      });
  },
};
