import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { TestApp } from './app.ts';

/** The folder the embedded mail transport writes to (`<dataDir>/outbox/<mail id>.eml`). */
export function outboxDir(app: TestApp): string {
  return path.join(app.dataDir, 'outbox');
}

/** Every mail delivered to the local outbox so far, parsed. */
export async function readOutbox(app: TestApp): Promise<ParsedMail[]> {
  const folder = outboxDir(app);
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder).filter((name) => name.endsWith('.eml'));
  return Promise.all(files.map((name) => simpleParser(readFileSync(path.join(folder, name)))));
}

/** The address a parsed mail was sent to, as plain text. */
export function recipientOf(mail: ParsedMail): string {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.map((address) => address.text).join(', ');
}

/**
 * Waits until a mail matching `predicate` is in the outbox (a pg-boss job delivers it shortly after the request),
 * polling every 200 ms; throws after `timeoutMs`.
 */
export async function waitForMail(
  app: TestApp,
  predicate: (mail: ParsedMail) => boolean,
  timeoutMs = 10_000,
): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox(app)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching mail in ${outboxDir(app)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
