import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with its slowest files and one plain line, 'Tests: N passed, N failed, N skipped', that any CI can
 * read.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    // The slowest files of the run: where CI's time goes.
    const slowest = [...testModules]
      .map((module) => ({ key: `${module.project.name}:${module.relativeModuleId}`, ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 20);
    if (testModules.length > 1) {
      process.stdout.write(
        `\nSlowest files:\n${slowest.map((f) => `  ${(f.ms / 1000).toFixed(1)} s  ${f.key}`).join('\n')}\n`,
      );
    }
    process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
