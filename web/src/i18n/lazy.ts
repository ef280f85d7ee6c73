import i18next from 'i18next';

type Catalogue = { [key: string]: string | Catalogue };

/**
 * Adds a feature's catalogue (both languages) when its lazy chunk loads, so the sign-in route never downloads the
 * text of screens it does not show. Call at module level in the feature's page file.
 */
export function registerCatalogue(namespace: string, catalogues: { ja: Catalogue; en: Catalogue }): void {
  for (const language of ['ja', 'en'] as const) {
    if (!i18next.hasResourceBundle(language, namespace)) {
      i18next.addResourceBundle(language, namespace, catalogues[language], true, false);
    }
  }
}
