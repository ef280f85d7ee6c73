/**
 * The targets next to the figures measured in one run. Every benchmark script reports its rows with
 * `reportTargets`: a table for a person reading its own output, and one marker line that `npm run bench` (bench/run.ts)
 * collects when it runs the script as a child process, so the whole run ends with one table of every target.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

/** One target and what was measured against it; `met` is null when there is nothing to compare (a baseline). */
export interface TargetRow {
  area: string;
  target: string;
  figure: string;
  met: boolean | null;
}

const MARKER = '@@bench-targets ';

/** The 1-minute load average and the CPUs, printed with every table: figures mean little without them. */
export function machineLine(): string {
  const cpus = os.cpus();
  return (
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'} · Node ${process.version} · ` +
    `1-min load average ${os.loadavg()[0]!.toFixed(2)}`
  );
}

export function formatTargets(title: string, rows: TargetRow[]): string {
  const cells = [
    ['area', 'target', 'measured', ''],
    ...rows.map((row) => [row.area, row.target, row.figure, row.met === null ? '' : row.met ? 'met' : 'NOT MET']),
  ];
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('   ')
      .trimEnd();
  return [
    `\n${title} · ${machineLine()}`,
    line(cells[0]!),
    widths.map((width) => '-'.repeat(width)).join('   '),
    ...cells.slice(1).map(line),
  ].join('\n');
}

/** Prints the rows as a table and as the marker line bench/run.ts collects. */
export function reportTargets(title: string, rows: TargetRow[]): void {
  console.log(formatTargets(title, rows));
  console.log(`${MARKER}${JSON.stringify(rows)}`);
}

/**
 * Runs a benchmark script as a child process (its RSS and CPU are its own), passes its output through without the
 * marker lines and returns the rows it reported. A script that fails adds a row saying so instead of ending the run.
 */
export async function runBenchScript(
  script: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<TargetRow[]> {
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const rows: TargetRow[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const text of lines) {
      if (text.startsWith(MARKER)) rows.push(...(JSON.parse(text.slice(MARKER.length)) as TargetRow[]));
      else console.log(text);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (pending && !pending.startsWith(MARKER)) console.log(pending);
  if (code !== 0) {
    rows.push({ area: script, target: 'runs to the end', figure: `exited with ${code}`, met: false });
  }
  return rows;
}
