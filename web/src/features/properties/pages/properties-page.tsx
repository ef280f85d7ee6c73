import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { PagedTable, SearchBox, sortHeaders, useListParams } from '../../../components/data-list.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCreateProperty } from '../api/create-property.ts';
import { usePropertyRights } from '../api/property-rights.ts';
import { type PropertyScopeFilter, type PropertySort, useProperties } from '../api/list-properties.ts';
import { PropertyForm } from '../components/property-form.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { japanDateFormat } from '../../../components/date-format.ts';
import { createAttributes, emptyForm } from '../form-state.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('properties', { ja, en });

/** Custom property definitions: search, scope filter, sort, paging; administrators on a paid plan create them. */
export function PropertiesPage() {
  const { t, i18n } = useTranslation(['properties', 'common']);
  const list = useListParams<PropertySort>('name');
  const [scope, setScope] = useState<PropertyScopeFilter>(undefined);
  const properties = useProperties(list.params, scope);
  const rights = usePropertyRights();
  const create = useCreateProperty();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const date = japanDateFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  const rows = properties.data?.data ?? [];
  const meta = properties.data?.meta;
  const sortable = sortHeaders(list);
  const display = (a: { publicToClient?: boolean; editableByClient?: boolean }) =>
    a.editableByClient ? t('display.editable') : a.publicToClient ? t('display.public') : t('display.private');

  return (
    <section aria-labelledby="properties-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="properties-title">{t('title')}</h1>
        {rights.canEdit && !creating && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            {t('list.create')}
          </button>
        )}
      </div>
      <p className="muted">{t('intro')}</p>
      {rights.freePlan && (
        <p className="notice" role="status">
          {t('freePlan')}
        </p>
      )}
      {!rights.freePlan && !rights.isAdmin && <p className="muted">{t('readOnly')}</p>}
      {creating && (
        <section aria-labelledby="property-create-title" className="panel">
          <h2 id="property-create-title">{t('form.createTitle')}</h2>
          <PropertyForm
            idPrefix="property-create"
            initial={emptyForm()}
            submitLabel={t('form.create')}
            onCancel={() => setCreating(false)}
            onSubmit={async (form) => {
              const property = await create.mutateAsync(createAttributes(form));
              toast.success(t('form.created', { name: property.attributes.name }));
              setCreating(false);
              await navigate({
                to: '/organizations/settings/properties/$propertyId',
                params: { propertyId: property.id },
              });
            }}
          />
        </section>
      )}
      <div className="list-toolbar">
        <SearchBox id="properties-search" label={t('list.search')} value={list.params.q} onSearch={list.setSearch} />
        <SelectField
          id="properties-scope"
          label={t('list.scopeFilter')}
          value={scope ?? ''}
          options={[
            { value: '', label: t('list.scopeAll') },
            { value: 10, label: t('scopes.10') },
            { value: 20, label: t('scopes.20') },
          ]}
          onChange={(event) => {
            setScope(event.target.value ? (Number(event.target.value) as 10 | 20) : undefined);
            list.setPage(1);
          }}
        />
      </div>
      {meta && <p className="muted">{t('list.usage', { count: meta.total, max: meta.maxProperties })}</p>}
      <PagedTable
        idPrefix="properties"
        list={list}
        query={properties}
        rowCount={rows.length}
        emptyText={t('list.empty')}
        searching={list.params.q !== '' || scope !== undefined}
        tableLabel={t('list.tableLabel')}
        header={
          <>
            {sortable('name', t('list.columns.name'))}
            <th scope="col">{t('list.columns.systemLinkId')}</th>
            {sortable('inputType', t('list.columns.inputType'))}
            <th scope="col">{t('list.columns.scope')}</th>
            <th scope="col">{t('list.columns.display')}</th>
            {sortable('createdAt', t('list.columns.createdAt'))}
          </>
        }
      >
        {rows.map((property) => (
          <tr key={property.id}>
            <td>
              <Link to="/organizations/settings/properties/$propertyId" params={{ propertyId: property.id }}>
                {property.attributes.name}
              </Link>
            </td>
            <td>{property.attributes.systemLinkId ?? '—'}</td>
            <td>{t(`inputTypes.${property.attributes.inputType}`)}</td>
            <td>{t(`scopes.${property.attributes.scope}`)}</td>
            <td>{display(property.attributes)}</td>
            <td>{date.format(new Date(property.attributes.createdAt))}</td>
          </tr>
        ))}
      </PagedTable>
    </section>
  );
}
