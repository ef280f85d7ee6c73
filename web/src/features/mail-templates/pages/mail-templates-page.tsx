import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { PagedTable, SearchBox, sortHeaders, useListParams } from '../../../components/data-list.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type LocaleFilter, type MailTemplateSort, useMailTemplates } from '../api/list-mail-templates.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('mailTemplates', { ja, en });

/** Every mail the service sends, per language, and whether the organization changed it (administrators). */
export function MailTemplatesPage() {
  const { t, i18n } = useTranslation(['mailTemplates', 'common']);
  const list = useListParams<MailTemplateSort>('kind');
  const [locale, setLocale] = useState<LocaleFilter>('');
  const templates = useMailTemplates({ ...list.params, locale });
  const date = japanDateTimeFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  if (templates.error instanceof ApiError && templates.error.code === 'IP_RESTRICTED') throw templates.error;
  const forbidden = templates.error instanceof ApiError && templates.error.code === 'FUNCTION_NOT_PERMITTED';
  const rows = templates.data?.data ?? [];
  const sortable = sortHeaders(list);

  return (
    <section aria-labelledby="mail-templates-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="mail-templates-title">{t('title')}</h1>
      </div>
      <p className="muted">{t('intro')}</p>
      {forbidden ? (
        <p className="notice" role="status">
          {t('list.forbidden')}
        </p>
      ) : (
        <>
          <div className="mail-templates-filters">
            <SearchBox
              id="mail-templates-search"
              label={t('list.search')}
              value={list.params.q}
              onSearch={list.setSearch}
            />
            <SelectField
              id="mail-templates-locale"
              label={t('list.locale')}
              value={locale}
              options={[
                { value: '', label: t('list.allLocales') },
                { value: 'ja', label: t('locales.ja') },
                { value: 'en', label: t('locales.en') },
              ]}
              onChange={(event) => {
                setLocale(event.target.value as LocaleFilter);
                list.setPage(1);
              }}
            />
          </div>
          <PagedTable
            idPrefix="mail-templates"
            list={list}
            query={templates}
            rowCount={rows.length}
            emptyText={t('list.empty')}
            searching={list.params.q !== '' || locale !== ''}
            tableLabel={t('list.tableLabel')}
            header={
              <>
                {sortable('name', t('list.columns.name'))}
                <th scope="col">{t('list.columns.locale')}</th>
                <th scope="col">{t('list.columns.summary')}</th>
                <th scope="col">{t('list.columns.status')}</th>
                {sortable('updatedAt', t('list.columns.updatedAt'))}
              </>
            }
          >
            {rows.map(({ id, attributes }) => (
              <tr key={id}>
                {/* The template's own texts are in its language, whatever the screen's. */}
                <td lang={attributes.locale}>
                  <Link
                    to="/organizations/settings/mail-templates/$kind/$locale"
                    params={{ kind: attributes.kind, locale: attributes.locale }}
                  >
                    {attributes.name}
                  </Link>
                </td>
                <td>{t(`locales.${attributes.locale}`)}</td>
                <td className="cell-wrap" lang={attributes.locale}>
                  {attributes.summary}
                </td>
                <td>
                  <span className={attributes.customised ? 'template-status is-customised' : 'template-status'}>
                    {attributes.customised ? t('list.customised') : t('list.builtIn')}
                  </span>
                </td>
                <td>{attributes.updatedAt ? date.format(new Date(attributes.updatedAt)) : '—'}</td>
              </tr>
            ))}
          </PagedTable>
        </>
      )}
    </section>
  );
}
