import { describe, expect, it } from 'vitest';
import type { AppError } from './errors.ts';
import { hasInvalidCharacters, invalidCharacterPointers, refuseInvalidCharacters } from './invalid-characters.ts';

describe('characters no request string may hold', () => {
  it('finds NUL, C0 controls other than tab, LF and CR, and unpaired surrogates', () => {
    for (const bad of ['a\u0000', '\u0001', '\u001b[31m', '\u000b', '\ud800', 'x\udc00', '\ude00\ud83d']) {
      expect(hasInvalidCharacters(bad), JSON.stringify(bad)).toBe(true);
    }
    for (const good of ['', '契約書', 'a\tb\r\nc', '\ud83d\ude00', '\u007f', '\u202e', 'ｱ']) {
      expect(hasInvalidCharacters(good), JSON.stringify(good)).toBe(false);
    }
  });

  it('points at every offending string and key, in document order, escaping ~ and /', () => {
    const body = { data: { attributes: { name: 'ok', 'a/b~': 'x\u0000', list: ['fine', '\ud800'], 'k\u0000': 1 } } };
    expect(invalidCharacterPointers(body)).toEqual([
      '/data/attributes/a~1b~0',
      '/data/attributes/list/1',
      '/data/attributes/k\u0000',
    ]);
    expect(invalidCharacterPointers('\u0000')).toEqual(['/']);
  });

  it('walks a body nested deeper than the call stack without overflowing', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(invalidCharacterPointers(deep)).toHaveLength(1);
  });

  it('throws 422 INVALID_CHARACTERS per field, and checks only the named members when asked', () => {
    const thrown = (() => {
      try {
        refuseInvalidCharacters({ q: 'a\u0000', other: '\u0000' }, ['q']);
      } catch (error) {
        return error as AppError;
      }
      return null;
    })();
    expect(thrown?.status).toBe(422);
    expect(thrown?.fields).toEqual([{ code: 'INVALID_CHARACTERS', pointer: '/q' }]);
    expect(() => refuseInvalidCharacters({ other: '\u0000' }, ['q'])).not.toThrow();
  });
});
