import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useDeleteProperty } from '../api/delete-property.ts';
import { usePropertyRights } from '../api/property-rights.ts';
import { useProperty } from '../api/get-property.ts';
import { useUpdateProperty } from '../api/update-property.ts';
import { PropertyForm } from '../components/property-form.tsx';
import { formOf, optionsChanged, updateAttributes } from '../form-state.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('properties', { ja, en });

const route = getRouteApi('/guarded/organizations/settings/properties/$propertyId');

/** One custom property: edit its settings and options, or delete it (administrators on a paid plan). */
export function PropertyDetailPage() {
  const { t } = useTranslation(['properties', 'common']);
  const { propertyId } = route.useParams();
  const navigate = useNavigate();
  const property = useProperty(propertyId);
  const rights = usePropertyRights();
  const update = useUpdateProperty();
  const remove = useDeleteProperty();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  // A new key remounts the form with the stored values (after a reload or a save).
  const [formKey, setFormKey] = useState(0);
  const data = property.data;
  const name = data?.attributes.name;

  useEffect(() => {
    document.title = `${name ?? t('detail.title')} | ${t('common:appName')}`;
  }, [t, name]);

  const reload = async () => {
    await property.refetch();
    setFormKey((k) => k + 1);
    toast.info(t('detail.reloaded'));
  };
  const deleteProperty = async () => {
    setFailure(null);
    try {
      await remove.mutateAsync(propertyId);
      toast.success(t('detail.deleted'));
      await navigate({ to: '/organizations/settings/properties' });
    } catch (error) {
      setFailure(error);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="property-detail-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/settings/properties">{t('detail.back')}</Link>
      </p>
      <div className="screen-header">
        <h1 id="property-detail-title">{name ?? t('detail.title')}</h1>
        {rights.canEdit && data && (
          <button
            type="button"
            className="button danger"
            disabled={data.attributes.inUse}
            title={data.attributes.inUse ? t('hints.inUse') : undefined}
            onClick={() => setConfirming(true)}
          >
            {t('detail.delete')}
          </button>
        )}
      </div>
      <DetailStatus query={property} loading={t('detail.loading')} notFound={t('detail.notFound')} />
      <ApiErrorNotice error={failure} />
      {rights.freePlan && (
        <p className="notice" role="status">
          {t('freePlan')}
        </p>
      )}
      {data && (
        <PropertyForm
          key={`${data.id}-${formKey}`}
          idPrefix="property-edit"
          initial={formOf(data)}
          submitLabel={t('form.save')}
          inUse={data.attributes.inUse}
          readOnly={!rights.canEdit}
          onReload={() => void reload()}
          onSubmit={async (form) => {
            const { lockVersion, optionsVersion, options } = data.attributes;
            const attributes = updateAttributes(form, { lockVersion, optionsVersion }, optionsChanged(form, options));
            await update.mutateAsync({ id: data.id, attributes });
            setFormKey((k) => k + 1);
            toast.success(t('form.saved'));
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title={t('detail.deleteTitle', { name })}
        confirmLabel={t('detail.delete')}
        danger
        pending={remove.isPending}
        onConfirm={() => void deleteProperty()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('detail.deleteBody')}</p>
      </ConfirmDialog>
    </section>
  );
}
