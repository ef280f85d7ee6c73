import { describe, expect, it } from 'vitest';
import workspacesEn from '../workspaces/i18n/en.json';
import workspacesJa from '../workspaces/i18n/ja.json';
import { FLOW_SORTS, FLOW_STATUSES } from './search-params.ts';
import en from './i18n/en.json';
import ja from './i18n/ja.json';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// The workspace and business flow screens' catalogues: complete in both languages.
describe.each([
  ['businessFlows', ja, en],
  ['workspaces', workspacesJa, workspacesEn],
] as [string, Catalogue, Catalogue][])('the %s catalogue', (_name, jaCatalogue, enCatalogue) => {
  it('has the same keys in ja and en', () => {
    const keys = (c: Catalogue) =>
      leaves(c)
        .map(([key]) => key)
        .sort();
    expect(keys(enCatalogue)).toEqual(keys(jaCatalogue));
  });

  it('has non-empty messages with the same placeholders in both languages', () => {
    const english = new Map(leaves(enCatalogue));
    for (const [key, text] of leaves(jaCatalogue)) {
      expect(text.trim(), key).not.toBe('');
      expect(english.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });
});

describe('the business flow catalogue', () => {
  it('names every status and every sort the search offers', () => {
    for (const status of FLOW_STATUSES) {
      expect(ja.status[status]).toBeTruthy();
      expect(workspacesJa.status[status]).toBeTruthy();
    }
    for (const sort of FLOW_SORTS) expect((ja.list.sorts as Record<string, string>)[sort], sort).toBeTruthy();
  });
});
