import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that each take half a minute or more although they are small: the default order (by cached duration, and
 * by file size on a fresh clone such as CI) would start them last, leaving one worker busy while the other waits.
 */
const SLOW_FIRST = [
  'tests/e2e/verification-report.test.ts',
  'tests/api/crash-recovery.test.ts',
  'tests/api/server-process.test.ts',
  'tests/api/master-key.test.ts',
  'tests/e2e/guest-signing.test.ts',
  'tests/e2e/one-time-invitations.test.ts',
];

/** The default order, with the known slow files started first. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
