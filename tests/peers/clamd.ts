/*
 * A real ClamAV daemon for tests: Debian's /usr/sbin/clamd started on a free TCP port with a temporary
 * configuration and a database folder holding only our own tiny signatures (clamd refuses to start on an empty
 * folder; the official databases are not needed). The signatures are written at run time, so no malware marker
 * is stored in the repository as a file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const CLAMD_BINARY = '/usr/sbin/clamd';

/** True when clamd is installed here (tests that need it skip otherwise, saying why). */
export const clamdAvailable = existsSync(CLAMD_BINARY);

/** A harmless marker our custom signature flags: a PDF holding it passes inspection but not clamd. */
export const CLAMD_TEST_MARKER = ['KEIYAKU', 'CLAMD', 'TEST', 'MARKER', '7f3a9c'].join('-');

export interface ClamdSignature {
  name: string;
  bytes: Buffer;
}

/** A free TCP port on 127.0.0.1 (free when asked; clamd takes it right after). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export class Clamd {
  private constructor(
    readonly host: string,
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  /** Starts clamd with `signatures` (plus the marker's) as its whole database; resolves once it answers PING. */
  static async start(signatures: ClamdSignature[] = []): Promise<Clamd> {
    const dir = mkdtempSync(path.join(tmpdir(), 'keiyaku-clamd-'));
    const database = path.join(dir, 'db');
    mkdirSync(database);
    const all = [{ name: 'Keiyaku.Test.Marker', bytes: Buffer.from(CLAMD_TEST_MARKER, 'latin1') }, ...signatures];
    writeFileSync(
      path.join(database, 'keiyaku.ndb'),
      all.map((s) => `${s.name}:0:*:${s.bytes.toString('hex')}`).join('\n') + '\n',
    );
    const port = await freePort();
    const config = path.join(dir, 'clamd.conf');
    writeFileSync(
      config,
      [
        'Foreground yes',
        `TCPSocket ${port}`,
        'TCPAddr 127.0.0.1',
        `DatabaseDirectory ${database}`,
        `TemporaryDirectory ${dir}`,
        `LogFile ${path.join(dir, 'clamd.log')}`,
        `PidFile ${path.join(dir, 'clamd.pid')}`,
        'StreamMaxLength 64M',
        'MaxThreads 2',
        '',
      ].join('\n'),
    );
    const child = spawn(CLAMD_BINARY, ['--config-file', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    const clamd = new Clamd('127.0.0.1', port, dir, child);
    await clamd.waitUntilReady(20_000);
    return clamd;
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) break;
      if ((await this.ping()) === 'PONG') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const log = existsSync(path.join(this.dir, 'clamd.log'))
      ? readFileSync(path.join(this.dir, 'clamd.log'), 'utf8')
      : '';
    await this.stop();
    throw new Error(`clamd did not start within ${timeoutMs} ms:\n${log}`);
  }

  /** Sends PING; resolves with the reply, or '' when clamd does not answer. */
  ping(): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.createConnection({ host: this.host, port: this.port });
      let reply = '';
      socket.setTimeout(1000, () => socket.destroy());
      socket.on('connect', () => socket.write('zPING\0'));
      socket.on('data', (data) => (reply += data.toString('utf8')));
      socket.on('error', () => resolve(''));
      socket.on('close', () => resolve(reply.replace(/\0/g, '').trim()));
    });
  }

  /** Stops this clamd (its own process only) and removes its folder. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
