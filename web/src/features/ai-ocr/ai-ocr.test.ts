import { describe, expect, it } from 'vitest';
import { sectionsFor } from '../../components/settings-sections.ts';
import en from './i18n/en.json';
import ja from './i18n/ja.json';

type Catalogue = { [key: string]: string | Catalogue };
const keys = (catalogue: Catalogue, prefix = ''): string[] =>
  Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
const texts = (catalogue: Catalogue): string[] =>
  Object.values(catalogue).flatMap((value) => (typeof value === 'string' ? [value] : texts(value)));
const bare = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '');

/** Names with no Japanese wording: the option, the format, and the keys a keyboard prints. */
const ALLOWED = ['AI', 'OCR', 'PDF', 'MB', 'Shift'];

describe('AI-OCR screens', () => {
  it('show the settings section to every member, only while /me lists the aiOcr feature', () => {
    const paths = (viewer: Parameters<typeof sectionsFor>[0]) => sectionsFor(viewer).map((s) => s.path);
    expect(paths({ isAdmin: true, features: ['aiOcr'] })).toContain('ai-ocr');
    expect(paths({ isAdmin: false, features: ['aiOcr'] })).toContain('ai-ocr');
    expect(paths({ isAdmin: true, features: ['box'] })).not.toContain('ai-ocr');
  });

  it('have the same messages in ja and en, ja without English beyond AI-OCR, PDF and key names', () => {
    expect(keys(ja).sort()).toEqual(keys(en).sort());
    const english = texts(ja)
      .flatMap((text) => bare(text).match(/[A-Za-z]+/g) ?? [])
      .filter((word) => !ALLOWED.includes(word));
    expect(english).toEqual([]);
    expect(texts(ja).filter((text) => /[(),:!?;.]/.test(bare(text).replace(/\d[.,:]\d/g, '')))).toEqual([]);
  });
});
