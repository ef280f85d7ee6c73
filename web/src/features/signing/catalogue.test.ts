import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import openapiSource from '../../../../openapi.yaml?raw';
import en from '../../i18n/en/signing.json';
import ja from '../../i18n/ja/signing.json';
import documentsEn from '../documents/i18n/en.json';
import documentsJa from '../documents/i18n/ja.json';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

interface Schema {
  enum?: string[];
  description?: string;
  properties?: Record<string, Schema>;
}
const schemas = (parse(openapiSource) as { components: { schemas: Record<string, Schema> } }).components.schemas;
const enumOf = (name: string) => schemas[name]?.enum ?? [];

// The signing namespace (signing screen, verification report, seal images, e-certificate, agents and the arrival
// confirmation page) is registered lazily by those pages, so the shared catalogue test does not see it: this does.
describe('the signing catalogue', () => {
  it('has the same keys in ja and en', () => {
    const keys = (c: Catalogue) =>
      leaves(c)
        .map(([key]) => key)
        .sort();
    expect(keys(en)).toEqual(keys(ja));
  });

  it('has non-empty messages with the same placeholders in both languages', () => {
    const english = new Map(leaves(en));
    for (const [key, text] of leaves(ja)) {
      expect(text.trim(), key).not.toBe('');
      expect(english.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('names every signature type, two-factor channel and certificate status of the contract', () => {
    for (const catalogue of [ja, en, documentsJa, documentsEn] as Catalogue[]) {
      const types = catalogue.signatureTypes as Record<string, string>;
      const channels = catalogue.twoFactors as Record<string, string>;
      for (const code of enumOf('SignatureTypeCode')) expect(types[code], code).toBeTruthy();
      for (const code of enumOf('TwoFactorChannel')) expect(channels[code], code).toBeTruthy();
    }
    for (const code of enumOf('SignatureTypeCode')) expect(ja.signatureTypeHints[code as 'party'], code).toBeTruthy();
    for (const status of enumOf('ECertificateStatus')) {
      expect(ja.certificateStatuses[status as 'valid'], status).toBeTruthy();
    }
  });

  it('translates every problem code the verification report lists', () => {
    const description = schemas.SignatureReport?.properties?.problems?.description ?? '';
    const codes = description
      .replace(/^[^:]*:/, '')
      .split(/[,.\s]+/)
      .filter((code) => /^[a-z0-9-]+$/.test(code));
    expect(codes.length).toBeGreaterThan(5);
    for (const code of codes) expect(ja.problems[code as 'digest-mismatch'], code).toBeTruthy();
  });
});
