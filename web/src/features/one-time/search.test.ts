import { describe, expect, it } from 'vitest';
import { validateOneTimeAuthSearch } from './search.ts';

describe('the query of /onetime/auth', () => {
  it('keeps the known keys as text, numbers included (the router reads "1" as 1), and drops the rest', () => {
    expect(
      validateOneTimeAuthSearch({ token: 'abc', sent: '2026-11-28T00:00:00Z', signedOut: 1, timeout: 1, other: 'x' }),
    ).toEqual({ token: 'abc', sent: '2026-11-28T00:00:00Z', signedOut: '1', timeout: '1' });
  });

  it('drops empty values and objects', () => {
    expect(validateOneTimeAuthSearch({ token: '', sent: { a: 1 } })).toEqual({
      token: undefined,
      sent: undefined,
      signedOut: undefined,
      timeout: undefined,
    });
  });
});
