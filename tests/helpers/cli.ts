import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  out: string;
  err: string;
  exitCode: number;
}

/**
 * Runs `keiyaku <args>` in this process through cli/main.ts's `main` (its real error handling and exit codes), with
 * `env` merged into process.env for the run.
 */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  let out = '';
  let err = '';
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  const savedExitCode = process.exitCode;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  process.exitCode = 0;
  try {
    await main(['node', 'keiyaku', ...args], { out: (t) => (out += t), err: (t) => (err += t) });
    return { out, err, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    process.exitCode = savedExitCode;
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** Runs the real `keiyaku` launcher (cli/bin/keiyaku.js) as a child process. */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['cli/bin/keiyaku.js', ...args],
      { cwd: ROOT, env: withoutUndefined({ ...process.env, ...env }) },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ out: stdout, err: stderr, exitCode: code });
      },
    );
  });
}

function withoutUndefined(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}
