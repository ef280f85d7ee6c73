import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { DOCUMENT_TYPES } from '../../../api/document-types.ts';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import type { DocumentType } from '../api/upload-document.ts';
import { useUpdateDocument } from '../api/update-document.ts';
import { fieldErrorsOf } from '../problems.ts';
import { type PropertyDraft, type PropertyField, PropertyInputs, propertyInputs } from './property-inputs.tsx';

export interface AttributesInitial {
  name: string;
  documentType: DocumentType;
  systemLinkId: string | null;
  lockVersion: number;
  properties: PropertyDraft;
}

/**
 * The document's name (only the workspace owner organization renames), type, ID for system link and properties,
 * saved with the lockVersion read; a stale one shows the reload notice (409 UPDATED_BY_ANOTHER_USER).
 */
export function AttributesForm(props: {
  documentId: string;
  initial: AttributesInitial;
  canRename: boolean;
  fields: PropertyField[];
  onReload: () => void;
}) {
  const { t } = useTranslation(['documents', 'errors']);
  const update = useUpdateDocument();
  const [name, setName] = useState(props.initial.name);
  const [documentType, setDocumentType] = useState(props.initial.documentType);
  const [systemLinkId, setSystemLinkId] = useState(props.initial.systemLinkId ?? '');
  const [drafts, setDrafts] = useState<PropertyDraft>(props.initial.properties);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[] | undefined>>({});
  const [propertyErrors, setPropertyErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setFieldErrors({});
    setPropertyErrors({});
    if (!name.trim()) return setFieldErrors({ name: [t('upload.nameRequired')] });
    const properties = propertyInputs(props.fields, drafts, props.initial.properties);
    try {
      await update.mutateAsync({
        documentId: props.documentId,
        attributes: {
          lockVersion: props.initial.lockVersion,
          ...(props.canRename && name.trim() !== props.initial.name ? { name: name.trim() } : {}),
          documentType,
          systemLinkId: systemLinkId.trim() || null,
          ...(properties.length > 0 ? { properties } : {}),
        },
      });
      toast.success(t('attributes.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const { properties: byProperty, ...fields } = fieldErrorsOf(
          error,
          (code) => t(`errors:${code}`),
          properties.map((p) => p.propertyId),
        );
        setFieldErrors(fields);
        setPropertyErrors(byProperty);
        if (Object.keys(fields).length + Object.keys(byProperty).length > 0) return;
      }
      setFailure(error);
    }
  };

  return (
    <section aria-labelledby="document-attributes-title" className="panel">
      <h2 id="document-attributes-title">{t('attributes.title')}</h2>
      <form className="admin-form" noValidate onSubmit={(event) => void submit(event)}>
        <ApiErrorNotice error={failure} onReload={props.onReload} />
        <FormField
          id="document-name"
          label={t('attributes.name')}
          required
          maxLength={200}
          autoComplete="off"
          readOnly={!props.canRename}
          hint={props.canRename ? undefined : t('attributes.renameOwnerOnly')}
          value={name}
          errors={fieldErrors.name ?? []}
          onChange={(event) => setName(event.target.value)}
        />
        <SelectField
          id="document-type"
          label={t('attributes.documentType')}
          value={documentType}
          options={DOCUMENT_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
          onChange={(event) => setDocumentType(event.target.value as DocumentType)}
        />
        <FormField
          id="document-system-link-id"
          label={t('attributes.systemLinkId')}
          maxLength={100}
          autoComplete="off"
          value={systemLinkId}
          errors={fieldErrors.systemLinkId ?? []}
          onChange={(event) => setSystemLinkId(event.target.value)}
        />
        <fieldset className="field">
          <legend>{t('properties.title')}</legend>
          <PropertyInputs
            fields={props.fields}
            drafts={drafts}
            errors={propertyErrors}
            onChange={(propertyId, value) => setDrafts({ ...drafts, [propertyId]: value })}
          />
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={update.isPending}>
            {update.isPending ? t('attributes.sending') : t('attributes.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
