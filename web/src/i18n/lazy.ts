import i18next from 'i18next';

type Catalogue = { [key: string]: string | Catalogue };

/**
 * Adds a feature's catalogue (both languages) when its lazy chunk loads, so the sign-in route never downloads the
 * text of screens it does not show. Call at module level in the feature's page file; before i18next has started
 * (a unit test importing the module) the catalogue is added once it does.
 */
export function registerCatalogue(namespace: string, catalogues: { ja: Catalogue; en: Catalogue }): void {
  const add = () => {
    for (const language of ['ja', 'en'] as const) {
      if (!i18next.hasResourceBundle(language, namespace)) {
        i18next.addResourceBundle(language, namespace, catalogues[language], true, false);
      }
    }
  };
  if (i18next.isInitialized) add();
  else i18next.on('initialized', add);
}
