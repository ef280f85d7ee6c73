import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import ja from './i18n/ja.json';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const bare = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '');
/** Latin letters a Japanese screen may show: the names QR code and URL have no Japanese form. */
const ALLOWED_LATIN = new Set(['QR', 'URL']);

describe('the one-time invitations catalogue', () => {
  it('has the same keys and placeholders in ja and en', () => {
    const english = new Map(leaves(en));
    expect([...english.keys()].sort()).toEqual(
      leaves(ja)
        .map(([key]) => key)
        .sort(),
    );
    const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of leaves(ja)) expect(names(english.get(key) ?? ''), key).toEqual(names(text));
  });

  it.each(leaves(ja))('ja %s uses full-width punctuation and no English', (_key, text) => {
    expect(bare(text)).not.toMatch(/[(),:;!?]/);
    const words = bare(text).match(/[A-Za-z][A-Za-z0-9-]*/g) ?? [];
    expect(words.filter((word) => !ALLOWED_LATIN.has(word))).toEqual([]);
  });

  it('uses the glossary terms', () => {
    const all = leaves(ja)
      .map(([, text]) => text)
      .join('\n');
    for (const term of ['ワンタイムユーザー', '招待', '再送', '再招待', 'QRコード']) expect(all).toContain(term);
  });
});
