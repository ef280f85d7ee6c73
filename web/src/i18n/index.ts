import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAuth from './en/auth.json';
import enCommon from './en/common.json';
import enErrors from './en/errors.json';
import jaAuth from './ja/auth.json';
import jaCommon from './ja/common.json';
import jaErrors from './ja/errors.json';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'keiyaku.language';

export const resources = {
  ja: { common: jaCommon, auth: jaAuth, errors: jaErrors },
  en: { common: enCommon, auth: enAuth, errors: enErrors },
} as const;

/** The language kept in localStorage; ja when none was chosen. */
export function storedLanguage(): Language {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : 'ja';
}

/** Keeps the choice and reloads the page, as the spec asks. */
export function changeLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language);
  window.location.reload();
}

export async function initI18n(language: Language = storedLanguage()) {
  document.documentElement.lang = language;
  await i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'ja',
    ns: ['common', 'auth', 'errors'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
