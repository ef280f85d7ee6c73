import { describe, expect, it } from 'vitest';
import { sectionsFor } from '../../components/settings-sections.ts';
import en from './i18n/en.json';
import ja from './i18n/ja.json';
import { validateBoxCallbackSearch } from './search.ts';

type Catalogue = { [key: string]: string | Catalogue };
const keys = (catalogue: Catalogue, prefix = ''): string[] =>
  Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
const texts = (catalogue: Catalogue): string[] =>
  Object.values(catalogue).flatMap((value) => (typeof value === 'string' ? [value] : texts(value)));

describe('Box screens', () => {
  it('show the settings section to administrators only, and only while /me lists the box feature', () => {
    const paths = (viewer: Parameters<typeof sectionsFor>[0]) => sectionsFor(viewer).map((s) => s.path);
    expect(paths({ isAdmin: true, features: ['box'] })).toContain('box');
    expect(paths({ isAdmin: true, features: ['sso'] })).not.toContain('box');
    expect(paths({ isAdmin: false, features: ['box'] })).not.toContain('box');
    // Right after single sign-on in the menu.
    const all = paths({ isAdmin: true, features: ['sso', 'box'] });
    expect(all.indexOf('box')).toBe(all.indexOf('sso') + 1);
  });

  it('keeps only what Box sent back to the callback from the query', () => {
    expect(validateBoxCallbackSearch({ code: 'c', state: 's', extra: 'x' })).toEqual({ code: 'c', state: 's' });
    expect(validateBoxCallbackSearch({ error: 'access_denied', state: 's' })).toEqual({
      error: 'access_denied',
      state: 's',
    });
    expect(validateBoxCallbackSearch({ code: 'x'.repeat(3000), state: 1 })).toEqual({});
  });

  it('has the same messages in ja and en, and ja without English beyond Box, PDF and URL', () => {
    expect(keys(ja).sort()).toEqual(keys(en).sort());
    const english = texts(ja)
      .map((text) => text.replace(/\{\{[^}]*\}\}/g, ''))
      .flatMap((text) => text.match(/[A-Za-z]+/g) ?? [])
      .filter((word) => !['Box', 'PDF', 'URL'].includes(word));
    expect(english).toEqual([]);
    // Full-width punctuation in Japanese.
    expect(texts(ja).filter((text) => /[(),:!?]/.test(text.replace(/\{\{[^}]*\}\}/g, '')))).toEqual([]);
  });
});
