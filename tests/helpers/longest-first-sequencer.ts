import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take a minute or more, whose size says little of it: the browser tests (chromium, a service and a
 * seeded organization per file) and the files that start the server as child processes.
 */
const LONG_FILES = [
  /^tests\/e2e\//,
  /^tests\/api\/(crash-recovery|scale-out|production-start|server-process)[\w-]*\.test\.ts$/,
];

/** What a long file is counted as when the results cache has no duration for it. */
const LONG_FILE_MS = 60_000;
/** Any other file without a cached duration: its size at this rate (API files of 10-30 KB take 10-80 s). */
const MS_PER_BYTE = 2;

/**
 * Starts the longest files first (longest-processing-time scheduling), so that the run ends on short files spread
 * over the workers rather than on one long file started last. A file's length is its duration in vitest's results
 * cache (node_modules/.vite, written at the end of each full run) or, for a file the cache does not know (every file
 * on CI's fresh clone), an estimate: {@link LONG_FILE_MS} for {@link LONG_FILES}, else by size. Vitest's own order
 * (by project, then cached duration or size) would start the small browser test files last on a fresh clone.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId).replaceAll('\\', '/');
      const key = `${spec.project.name}:${file}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      if (cached && cached.duration > 0) return cached.duration;
      if (LONG_FILES.some((pattern) => pattern.test(file))) return LONG_FILE_MS;
      return (this.ctx.cache.getFileStats(key)?.size ?? 0) * MS_PER_BYTE;
    };
    const estimates = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => estimates.get(b)! - estimates.get(a)!);
  }
}
