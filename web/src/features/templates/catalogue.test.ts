import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import ja from './i18n/ja.json';
import { DOCUMENT_TYPES } from '../../api/document-types.ts';
import { TASK_TYPES } from './validation.ts';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe.each([
  ['ja', ja],
  ['en', en],
] as [string, Catalogue][])('the templates catalogue (%s)', (_language, catalogue) => {
  it('has the same keys as the other language, all non-empty, with the same placeholders', () => {
    const other = new Map(leaves(catalogue === ja ? en : ja));
    const mine = leaves(catalogue);
    expect(mine.map(([key]) => key).sort()).toEqual([...other.keys()].sort());
    for (const [key, text] of mine) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(text), key).toEqual(placeholders(other.get(key) ?? ''));
    }
  });

  it('names every document type and task type of the contract', () => {
    for (const type of DOCUMENT_TYPES) expect((catalogue.documentTypes as Catalogue)[type], type).toBeTruthy();
    for (const type of TASK_TYPES) expect((catalogue.taskTypes as Catalogue)[type], type).toBeTruthy();
  });
});
