import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the sink accepted: the SMTP envelope, the raw bytes and the parsed mail. */
export interface ReceivedMail {
  envelope: { from: string | null; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  messageId: string | undefined;
  subject: string | undefined;
  text: string;
}

/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server, no TLS, no auth) that keeps every message it accepts.
 * `stop()` closes it so senders get ECONNREFUSED (SMTP down); `start()` opens it again on the same port.
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** Addresses refused at RCPT TO with 550 5.1.1 (a permanent failure: the mailbox does not exist). */
  readonly rejectedRecipients = new Set<string>();
  private server: SMTPServer | null = null;
  private port = 0;
  private waiters: (() => void)[] = [];

  /** Starts a sink on a free port. */
  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await sink.start();
    return sink;
  }

  /** The SMTP_URL nodemailer takes. */
  get url(): string {
    if (this.port === 0) throw new Error('SMTP sink was never started');
    return `smtp://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.server !== null;
  }

  /** Listens (again) on 127.0.0.1: a free port the first time, the same port after a stop. */
  async start(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      // Without STARTTLS nodemailer talks plain SMTP instead of upgrading to the server's self-signed certificate.
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      closeTimeout: 1000,
      onRcptTo: (address, _session, callback) => {
        if (!this.rejectedRecipients.has(address.address.toLowerCase())) return callback();
        const refusal = new Error('5.1.1 <' + address.address + '>: Recipient address rejected: User unknown');
        (refusal as Error & { responseCode: number }).responseCode = 550;
        callback(refusal);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              this.messages.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                raw,
                parsed,
                messageId: parsed.messageId,
                subject: parsed.subject,
                text: parsed.text ?? '',
              });
              for (const wake of this.waiters.splice(0)) wake();
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      server.once('error', onError);
      server.listen(this.port, '127.0.0.1', () => {
        server.removeListener('error', onError);
        resolve();
      });
    });
    // Errors of single connections (a client hanging up) are no test failure.
    server.on('error', () => {});
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port: until start() again, every connection attempt is refused. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Messages sent to an address (envelope recipient). */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.envelope.to.includes(address));
  }

  /** Resolves with the first message that matches, waiting up to timeoutMs for it to arrive. */
  async waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`SMTP sink: no matching message within ${timeoutMs} ms (${this.messages.length} received)`);
      }
      // Wake on the next message, or look again after a while.
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(
          () => {
            this.waiters = this.waiters.filter((w) => w !== wake);
            resolve();
          },
          Math.min(left, 250),
        );
        this.waiters.push(wake);
      });
    }
  }
}
