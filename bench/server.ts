/**
 * What the benchmarks that run the real server as a child process share (bench/flows.ts, bench/sign-task.ts): a free
 * port, the server started with `node --import tsx core/server.ts` on a benchmark database and waited for, and the
 * percentile of a sorted list of response times.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof': Node options for the server, to profile it under load. */
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/**
 * Starts core/server.ts as its own process on `databaseUrl` (no job workers, no response validation, no web build,
 * silent, production mode; `env` adds or overrides, and a key given as undefined is left unset) and waits for
 * /readyz, two minutes at most.
 */
export async function startServer(
  port: number,
  dataDir: string,
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  const settings: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    KEIYAKU_DATA_DIR: dataDir,
    KEIYAKU_WORKERS: 'false',
    KEIYAKU_VALIDATE_RESPONSES: 'false',
    KEIYAKU_SKIP_WEB_BUILD: '1',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    ...env,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete settings[key];
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, '--import', 'tsx', 'core/server.ts'], {
    env: settings,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGTERM');
  throw new Error('the server did not become ready in 2 minutes');
}

/** The p-th percentile of ascending `sorted` (nearest rank); NaN for none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
