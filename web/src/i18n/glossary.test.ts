import { describe, expect, it } from 'vitest';
import glossary from './glossary.json';
import { resources } from './index.ts';
import jaSigning from './ja/signing.json';

type Catalogue = { [key: string]: string | Catalogue };

function messages(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : messages(value, `${prefix}${key}.`),
  );
}

/** Every ja catalogue: the namespaces loaded at start, the lazily registered signing one and each feature's own. */
const featureCatalogues = import.meta.glob<Catalogue>('../features/*/i18n/ja.json', { eager: true, import: 'default' });
const jaCatalogues: [string, Catalogue][] = [
  ...Object.entries(resources.ja).map(([name, catalogue]): [string, Catalogue] => [name, catalogue as Catalogue]),
  ['signing', jaSigning as Catalogue],
  ...Object.entries(featureCatalogues).map(([file, catalogue]): [string, Catalogue] => [file, catalogue]),
];
const allJa = jaCatalogues.flatMap(([name, catalogue]) =>
  messages(catalogue).map(([key, text]): [string, string] => [`${name}:${key}`, text]),
);

/**
 * The signing catalogue's sections written to the Japanese style guide (the verification report and the
 * e-certificate screen): full-width brackets, colons and commas, and no English words beyond the names of
 * standards and formats that have no Japanese name.
 */
const STYLED_SECTIONS = ['report', 'problems', 'revocationReasons', 'verify', 'certificate', 'certificateStatuses'];
const ALLOWED_LATIN = new Set(['PDF', 'PAdES', 'SHA-256', 'CRL', 'OCSP', 'PIN', 'PKCS#12', 'MB', 'p12', 'pfx']);

const styled = messages(jaSigning as Catalogue).filter(([key]) => STYLED_SECTIONS.includes(key.split('.')[0]!));
/** The text without its {{placeholders}}, which are filled in at run time. */
const bare = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '');

describe('the glossary', () => {
  it('gives each concept one Japanese term and never the wordings it avoids', () => {
    // One expectation over every finding: an expect per message and term is too slow once there are thousands.
    const findings: string[] = [];
    for (const term of glossary.terms) {
      for (const [key, text] of allJa) {
        const kept = (term.except ?? []).reduce((rest, name) => rest.split(name).join(''), text);
        for (const avoided of term.avoid)
          if (kept.includes(avoided)) findings.push(`${key} uses ${avoided}, not ${term.ja}`);
      }
    }
    expect(findings).toEqual([]);
  });

  it('uses the glossary terms in the verification report', () => {
    const report = styled.map(([, text]) => text).join('\n');
    for (const term of [
      '署名',
      '電子証明書',
      'タイムスタンプ',
      '失効',
      '作成者署名',
      '検証できません',
      '発行元',
      '版',
    ]) {
      expect(report, term).toContain(term);
    }
  });
});

describe('the Japanese style of every ja message', () => {
  /** Japanese text: kana or kanji in it (a message that is only a format name or a number is not). */
  const japanese = allJa.filter(([, text]) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(text));

  it('uses full-width brackets, colons, commas, question and exclamation marks', () => {
    const findings = japanese
      // A character the user types (the CSV list separator 「;」) is quoted, not punctuation.
      .map(([key, text]): [string, string] => [key, bare(text).replace(/https?:\/\/\S+|「;」/g, '')])
      // Half-width punctuation is kept only between digits (1,234 and 12:00).
      .filter(([, text]) => /[()!?;]|(?<!\d),|,(?!\d)|(?<!\d):|:(?!\d)/.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(findings).toEqual([]);
  });

  it('shows no developer commands or English status lines', () => {
    const findings = japanese
      .filter(([, text]) =>
        /(^|\s)--[a-z]|\bnpm\b|\bnpx\b|keiyaku [a-z]+ [a-z]+|Not Found|Forbidden|Unauthorized|Internal Server/.test(
          text,
        ),
      )
      .map(([key, text]) => `${key}: ${text}`);
    expect(findings).toEqual([]);
  });
});

describe('the Japanese style of the report and e-certificate texts', () => {
  it.each(styled)('%s uses full-width punctuation', (_key, text) => {
    expect(bare(text)).not.toMatch(/[(),:;!?]/);
  });

  it.each(styled)('%s has no English words', (_key, text) => {
    const words = bare(text).match(/[A-Za-z][A-Za-z0-9#-]*/g) ?? [];
    expect(words.filter((word) => !ALLOWED_LATIN.has(word))).toEqual([]);
  });
});
