import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { OutgoingMail } from '../../core/mail/mailer.ts';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from '../../core/files/private-folder.ts';

/** Where a mail went: an SMTP server, or the local outbox folder of the embedded default. */
export interface MailTransport {
  kind: 'smtp' | 'outbox';
  deliver(mail: OutgoingMail, from: string): Promise<string>;
  close(): void;
}

/** The Message-ID is derived from the mail's id, so a retried delivery is recognisable as the same message. */
export function messageIdOf(mail: OutgoingMail): string {
  return `<${mail.id}@keiyaku.mail>`;
}

function envelope(mail: OutgoingMail, from: string) {
  return { messageId: messageIdOf(mail), from, to: mail.to, subject: mail.subject, text: mail.text };
}

/** Delivers through SMTP_URL with nodemailer; a refused or unreachable server throws, and the job retries. */
export function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async deliver(mail, from) {
      await transporter.sendMail(envelope(mail, from));
      return messageIdOf(mail);
    },
    close: () => transporter.close(),
  };
}

/**
 * Writes each mail as an RFC 5322 .eml file under <data>/outbox; `npm run cli -- mail outbox` prints them. Mails
 * hold temporary passwords and reset links, so the folder is the owner's only (0700) and each file 0600.
 */
export function outboxTransport(folder: string): MailTransport {
  ensurePrivateFolder(folder);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async deliver(mail, from) {
      const { message } = (await composer.sendMail(envelope(mail, from))) as { message: Buffer };
      ensurePrivateFolder(folder); // again, in case someone removed it while the service ran
      const file = path.join(folder, `${mail.id}.eml`);
      // Write then rename, so a reader never sees half a message. The mode applies only to a new file: chmod
      // covers a .tmp left by a crash.
      writeFileSync(`${file}.tmp`, message, { mode: PRIVATE_FILE_MODE });
      chmodSync(`${file}.tmp`, PRIVATE_FILE_MODE);
      renameSync(`${file}.tmp`, file);
      return messageIdOf(mail);
    },
    close: () => composer.close(),
  };
}
