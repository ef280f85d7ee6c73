import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutgoingMail } from '../../core/mail/mailer.ts';
import { outboxTransport } from '../../plugins/mail/transport.ts';
import { buildProgram } from '../main.ts';

const FROM = 'Keiyaku <no-reply@keiyaku.localhost>';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function mail(kind: OutgoingMail['kind'], to: string, subject: string, text: string): OutgoingMail {
  return { id: randomUUID(), kind, to, subject, text, organizationId: null, userId: null };
}

const oldest = mail(
  'welcome',
  'oldest@example.com',
  '【Keiyaku】ご登録ありがとうございます',
  '山田 太郎 様\n\nご登録ありがとうございます。',
);
const middle = mail('user-id-reminder', 'middle@example.com', '【Keiyaku】ユーザーIDのお知らせ', 'ユーザーID: owner-1');
const newest = mail(
  'password-reset',
  'newest@example.com',
  '【Keiyaku】パスワード再設定のご案内',
  '下記のリンクから30分以内に新しいパスワードを設定してください。\n\nhttp://localhost:3000/forget-password/reset?token=abc%2Bdef\n\n--\nKeiyaku 電子契約サービス',
);

let dataDir: string;
let outbox: string;
const savedDataDir = process.env.KEIYAKU_DATA_DIR;

/** Runs `keiyaku <args>` in this process and returns what it printed. */
async function run(...args: string[]): Promise<{ out: string; err: string }> {
  let out = '';
  let err = '';
  const program = buildProgram(undefined, { out: (t) => (out += t), err: (t) => (err += t) });
  // Errors throw instead of exiting the test process.
  const throwInsteadOfExit = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(throwInsteadOfExit);
  };
  throwInsteadOfExit(program);
  await program.parseAsync(['node', 'keiyaku', ...args]);
  return { out, err };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-cli-'));
  outbox = path.join(dataDir, 'outbox');
  process.env.KEIYAKU_DATA_DIR = dataDir;
  // Real .eml files from the plugin's transport, composed at three different times and written out of order.
  const transport = outboxTransport(outbox);
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    for (const [at, message] of [
      ['2026-11-20T09:00:00Z', middle],
      ['2026-11-21T09:00:00Z', newest],
      ['2026-11-19T09:00:00Z', oldest],
    ] as const) {
      vi.setSystemTime(new Date(at));
      await transport.deliver(message, FROM);
    }
  } finally {
    vi.useRealTimers();
    transport.close();
  }
  // A file still being written is not a mail yet.
  writeFileSync(path.join(outbox, `${randomUUID()}.eml.tmp`), 'Subject: half');
});

afterAll(() => {
  if (savedDataDir === undefined) delete process.env.KEIYAKU_DATA_DIR;
  else process.env.KEIYAKU_DATA_DIR = savedDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('keiyaku mail outbox', () => {
  it('prints date, recipient, subject and the whole text of every mail, newest first', async () => {
    const { out, err } = await run('mail', 'outbox');
    expect(err).toBe('');
    const blocks = out.split(/^-{72}\n/m).filter(Boolean);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toBe(
      [
        'Date:    2026-11-21T09:00:00.000Z',
        'To:      newest@example.com',
        'Subject: 【Keiyaku】パスワード再設定のご案内',
        '',
        newest.text,
        '',
      ].join('\n'),
    );
    expect(blocks[1]).toContain('Subject: 【Keiyaku】ユーザーIDのお知らせ');
    expect(blocks[2]).toContain('To:      oldest@example.com');
    expect(blocks[2]).toContain('山田 太郎 様');
    // The reset link comes out whole, ready to click.
    expect(out).toContain('http://localhost:3000/forget-password/reset?token=abc%2Bdef\n');
  });

  it('prints at most --limit mails, the newest ones', async () => {
    const { out } = await run('mail', 'outbox', '--limit', '2');
    const subjects = out.split('\n').filter((line) => line.startsWith('Subject: '));
    expect(subjects).toEqual([
      'Subject: 【Keiyaku】パスワード再設定のご案内',
      'Subject: 【Keiyaku】ユーザーIDのお知らせ',
    ]);
  });

  it('prints a JSON array with --json', async () => {
    const { out } = await run('mail', 'outbox', '--json', '--limit', '3');
    const mails = JSON.parse(out);
    expect(mails.map((m: { id: string }) => m.id)).toEqual([newest.id, middle.id, oldest.id]);
    expect(mails[0]).toEqual({
      id: newest.id,
      date: '2026-11-21T09:00:00.000Z',
      from: '"Keiyaku" <no-reply@keiyaku.localhost>',
      to: 'newest@example.com',
      subject: newest.subject,
      text: newest.text,
    });
  });

  it('rejects a --limit that is not a positive integer', async () => {
    await expect(run('mail', 'outbox', '--limit', '0')).rejects.toThrow(/must be a positive integer/);
  });

  it('says so when the outbox does not exist yet', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'keiyaku-cli-empty-'));
    process.env.KEIYAKU_DATA_DIR = empty;
    try {
      expect((await run('mail', 'outbox')).out).toBe(`No mail in ${path.join(empty, 'outbox')}\n`);
      expect(JSON.parse((await run('mail', 'outbox', '--json')).out)).toEqual([]);
    } finally {
      process.env.KEIYAKU_DATA_DIR = dataDir;
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('works as the `npm run cli` command without opening the database', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'cli/main.ts', 'mail', 'outbox', '--limit', '1'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          KEIYAKU_DATA_DIR: dataDir,
          KEIYAKU_MASTER_KEY: randomBytes(32).toString('base64'),
        },
      },
    );
    expect(stdout).toContain('Subject: 【Keiyaku】パスワード再設定のご案内');
    expect(stdout).not.toContain('oldest@example.com');
    // The embedded PGlite lives in <dataDir>/pgdata: the command never created (or locked) it.
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  });
});
