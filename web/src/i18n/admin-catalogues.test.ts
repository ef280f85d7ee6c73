import { describe, expect, it } from 'vitest';
import { DATA_LIST_TEXTS } from '../components/data-list-texts.ts';
import groupsEn from '../features/groups/i18n/en.json';
import groupsJa from '../features/groups/i18n/ja.json';
import rolesEn from '../features/roles/i18n/en.json';
import rolesJa from '../features/roles/i18n/ja.json';
import usersEn from '../features/users/i18n/en.json';
import usersJa from '../features/users/i18n/ja.json';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// The administration screens' catalogues (users, groups, roles and the shared list parts) in both languages.
const CATALOGUES: [string, Catalogue, Catalogue][] = [
  ['users', usersJa, usersEn],
  ['groups', groupsJa, groupsEn],
  ['roles', rolesJa, rolesEn],
  ['dataList', DATA_LIST_TEXTS.ja, DATA_LIST_TEXTS.en],
];

describe.each(CATALOGUES)('the %s catalogue', (_name, ja, en) => {
  it('has the same keys in ja and en', () => {
    expect(
      leaves(en)
        .map(([key]) => key)
        .sort(),
    ).toEqual(
      leaves(ja)
        .map(([key]) => key)
        .sort(),
    );
  });

  it('has non-empty messages with the same placeholders in both languages', () => {
    const english = new Map(leaves(en));
    for (const [key, text] of leaves(ja)) {
      expect(text.trim(), key).not.toBe('');
      expect(english.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });
});
