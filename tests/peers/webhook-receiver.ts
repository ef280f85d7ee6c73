/*
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 that records every request and answers per path with a
 * behaviour the test chose (status codes in turn, a stall longer than the sender's timeout, an oversized body).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What one path answers, request after request: a status, `stall` (never answers in time), `big` (1 MB of 200). */
export type Answer = number | 'stall' | 'big';

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, Answer[]>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => receiver!.answer(request.url ?? '/', request.headers, Buffer.concat(chunks), response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  /** The answers of `path`, in turn; the last one repeats. Without a script a path answers 200. */
  script(path: string, answers: Answer[]): string {
    this.scripts.set(path, [...answers]);
    return `${this.url}${path}`;
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  private answer(path: string, headers: IncomingHttpHeaders, body: Buffer, response: ServerResponse): void {
    this.received.push({ path, headers, body: body.toString('utf8'), at: Date.now() });
    const script = this.scripts.get(path) ?? [200];
    const next = script.length > 1 ? script.shift()! : script[0]!;
    if (next === 'stall') {
      setTimeout(() => response.writeHead(200).end('late'), 5_000).unref();
      return;
    }
    if (next === 'big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(Buffer.alloc(1024 * 1024, 'x'));
      return;
    }
    response.writeHead(next, { 'content-type': 'text/plain' }).end('ok');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
