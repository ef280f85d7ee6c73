import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import openapiSource from '../../../openapi.yaml?raw';
import { changeLanguage, initI18n, LANGUAGES, resources, storedLanguage } from './index.ts';

type Catalogue = { [key: string]: string | Catalogue };

/** Every key path of a catalogue, nested keys joined with dots. */
function keyPaths(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}

/** Every leaf message of a catalogue with its key path. */
function messages(catalogue: Catalogue, prefix = ''): [string, unknown][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? messages(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const placeholders = (message: string) => [...message.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

const openapi = parse(openapiSource) as { components: { schemas: { ErrorCode: { enum: string[] } } } };
const errorCodes = openapi.components.schemas.ErrorCode.enum;
const namespaces = Object.keys(resources.ja) as (keyof typeof resources.ja)[];

/** Catalogues of lazily loaded features (web/src/features/<feature>/i18n/{ja,en}.json, see i18n/lazy.ts). */
const featureCatalogues = import.meta.glob<Catalogue>('../features/*/i18n/*.json', { eager: true, import: 'default' });
const featureNames = [...new Set(Object.keys(featureCatalogues).map((file) => file.split('/')[2]!))].sort();

/** Every catalogue as [name, ja, en]: the namespaces loaded at start and each feature's own. */
const allCatalogues: [string, Catalogue, Catalogue][] = [
  ...namespaces.map((ns): [string, Catalogue, Catalogue] => [
    ns,
    resources.ja[ns] as Catalogue,
    resources.en[ns] as Catalogue,
  ]),
  ...featureNames.map((feature): [string, Catalogue, Catalogue] => [
    feature,
    featureCatalogues[`../features/${feature}/i18n/ja.json`] ?? {},
    featureCatalogues[`../features/${feature}/i18n/en.json`] ?? {},
  ]),
];

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('catalogues', () => {
  it('ja and en have the same namespaces', () => {
    expect(LANGUAGES).toEqual(['ja', 'en']);
    expect(Object.keys(resources.en).sort()).toEqual([...namespaces].sort());
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'auth', 'errors']));
  });

  it.each(allCatalogues)('ja and en have exactly the same keys in %s (deeply)', (_name, ja, en) => {
    expect(keyPaths(en).sort()).toEqual(keyPaths(ja).sort());
  });

  it.each(allCatalogues)(
    'every message in %s is a non-empty string with the same placeholders in ja and en',
    (name, jaCatalogue, enCatalogue) => {
      const en = new Map(messages(enCatalogue));
      for (const [key, ja] of messages(jaCatalogue)) {
        const other = en.get(key);
        expect(typeof ja === 'string' && ja.trim() !== '', `ja ${name}:${key}`).toBe(true);
        expect(typeof other === 'string' && other.trim() !== '', `en ${name}:${key}`).toBe(true);
        expect(placeholders(other as string), `${name}:${key}`).toEqual(placeholders(ja as string));
      }
    },
  );

  it('every feature catalogue exists in both languages', () => {
    for (const feature of featureNames) {
      expect(featureCatalogues[`../features/${feature}/i18n/ja.json`], `${feature} ja`).toBeDefined();
      expect(featureCatalogues[`../features/${feature}/i18n/en.json`], `${feature} en`).toBeDefined();
    }
  });

  it('the errors namespace has a message for every ErrorCode of openapi.yaml, and nothing else but the two client codes', () => {
    expect(errorCodes.length).toBeGreaterThan(0);
    const expected = [...errorCodes, 'NETWORK_ERROR', 'UNKNOWN_ERROR'].sort();
    for (const language of LANGUAGES) {
      expect(Object.keys(resources[language].errors).sort(), language).toEqual(expected);
      for (const value of Object.values(resources[language].errors)) expect(typeof value).toBe('string');
    }
  });

  it('the en error messages use the spec catalogue wording', () => {
    const en = resources.en.errors as Record<string, string>;
    expect(en.FORBIDDEN).toBe("You don't have permission to access.");
    expect(en.IP_RESTRICTED).toBe('You cannot access from your IP address.');
    expect(en.FUNCTION_NOT_PERMITTED).toBe('You do not have permission to use this function.');
    expect(en.UPDATED_BY_ANOTHER_USER).toBe('Updated by another user. Please reload.');
    expect(en.PLAN_FEATURE_UNAVAILABLE).toBe('The feature is not available for free plan.');
  });
});

describe('language', () => {
  it('defaults to ja', () => {
    expect(storedLanguage()).toBe('ja');
  });

  it('reads the stored language from localStorage', () => {
    localStorage.setItem('keiyaku.language', 'en');
    expect(storedLanguage()).toBe('en');
    localStorage.setItem('keiyaku.language', 'ja');
    expect(storedLanguage()).toBe('ja');
  });

  it('falls back to ja for a stored value that is not a supported language', () => {
    localStorage.setItem('keiyaku.language', 'fr');
    expect(storedLanguage()).toBe('ja');
  });

  it('changeLanguage stores the choice and reloads the page', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    changeLanguage('en');
    expect(localStorage.getItem('keiyaku.language')).toBe('en');
    expect(reload).toHaveBeenCalledTimes(1);
    changeLanguage('ja');
    expect(localStorage.getItem('keiyaku.language')).toBe('ja');
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('initialises in ja by default, with the page language set', async () => {
    const i18n = await initI18n();
    expect(i18n.language).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(i18n.t('errors:FORBIDDEN')).toBe((resources.ja.errors as Record<string, string>).FORBIDDEN);
  });

  it('initialises in the stored language after a reload', async () => {
    localStorage.setItem('keiyaku.language', 'en');
    const i18n = await initI18n();
    expect(i18n).toBe(i18next);
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('errors:FORBIDDEN')).toBe("You don't have permission to access.");
    expect(i18n.t('errors:NETWORK_ERROR')).toBe((resources.en.errors as Record<string, string>).NETWORK_ERROR);
  });
});
