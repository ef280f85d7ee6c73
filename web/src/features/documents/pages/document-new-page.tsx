import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { DOCUMENT_TYPES } from '../../../api/document-types.ts';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice, useErrorText } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useDocumentProperties, useDocumentTemplates } from '../api/editor-choices.ts';
import { type DocumentType, uploadDocument, useUpload } from '../api/upload-document.ts';
import { FileDrop } from '../components/file-drop.tsx';
import { PdfViewer } from '../components/pdf-viewer.tsx';
import {
  type PropertyDraft,
  type PropertyField,
  PropertyInputs,
  propertyInputs,
} from '../components/property-inputs.tsx';
import { checkDocumentFile, type FileProblem, MAX_FILE_NAME_LENGTH, nameFromFile } from '../file-checks.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { fieldErrorsOf } from '../problems.ts';
import '../documents.css';

registerCatalogue('documents', { ja, en });

const route = getRouteApi('/guarded/organizations/business-flows/$businessFlowId/documents/new');

/** The organization's document-scope properties as inputs (all editable: the uploader's own definitions). */
function usePropertyFields(): PropertyField[] {
  const properties = useDocumentProperties(true);
  return (properties.data?.data ?? []).map((property) => ({
    propertyId: property.id,
    name: property.attributes.name ?? '',
    inputType: property.attributes.inputType ?? 20,
    editable: true,
    options: property.attributes.options.map((option) => ({ id: option.id, label: option.label })),
    lockVersion: property.attributes.lockVersion,
    optionsVersion: property.attributes.optionsVersion,
  }));
}

/** Upload a PDF to a business flow: choose or drop it, preview it, name it, then send it with progress. */
export function DocumentNewPage() {
  const { t } = useTranslation(['documents', 'errors', 'common']);
  const { businessFlowId } = route.useParams();
  const navigate = useNavigate();
  const templates = useDocumentTemplates();
  const propertyFields = usePropertyFields();
  const upload = useUpload(uploadDocument);
  const errorText = useErrorText();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<FileProblem | ApiError | null>(null);
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [documentType, setDocumentType] = useState<DocumentType>('contract');
  const [templateId, setTemplateId] = useState('');
  const [systemLinkId, setSystemLinkId] = useState('');
  const [drafts, setDrafts] = useState<PropertyDraft>({});
  const [propertyErrors, setPropertyErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    document.title = `${t('upload.title')} | ${t('common:appName')}`;
  }, [t]);

  const choose = async (chosen: File | null) => {
    setFailure(null);
    const problem = await checkDocumentFile(chosen);
    setFileProblem(problem);
    setFile(problem ? null : chosen);
    if (!problem && chosen && !name) setName(nameFromFile(chosen.name));
  };

  const fileMessage = (problem: FileProblem | ApiError) =>
    problem instanceof ApiError
      ? errorText(problem)
      : t(`errors:${problem.code}`, 'params' in problem ? problem.params : {});

  const validate = () => {
    const trimmed = name.trim();
    const nameError = !trimmed
      ? t('upload.nameRequired')
      : trimmed.length > MAX_FILE_NAME_LENGTH
        ? t('upload.nameTooLong')
        : null;
    setNameProblem(nameError);
    if (!file) setFileProblem(fileProblem ?? { code: 'FILE_REQUIRED' });
    return !nameError && Boolean(file);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!validate() || !file) return;
    const properties = propertyInputs(propertyFields, drafts);
    try {
      const created = await upload.run(businessFlowId, {
        file,
        name: name.trim(),
        documentType,
        ...(systemLinkId.trim() ? { systemLinkId: systemLinkId.trim() } : {}),
        ...(templateId ? { documentTemplateId: templateId } : {}),
        properties,
      });
      toast.success(t('upload.done'));
      await navigate({ to: '/organizations/documents/$documentId', params: { documentId: created.id } });
    } catch (error) {
      placeServerError(
        error,
        properties.map((p) => p.propertyId),
      );
    }
  };

  const placeServerError = (error: unknown, sentPropertyIds: string[]) => {
    if (error instanceof ApiError && error.code.startsWith('FILE_')) return setFileProblem(error);
    if (error instanceof ApiError && error.status === 422) {
      const fields = fieldErrorsOf(error, (code) => t(`errors:${code}`), sentPropertyIds);
      if (fields.name) setNameProblem(fields.name[0]!);
      setPropertyErrors(fields.properties);
      if (fields.name || Object.keys(fields.properties).length > 0) return;
    }
    setFailure(error);
  };

  return (
    <section aria-labelledby="document-new-title" className="admin-screen">
      <p className="back-link">
        <Link to="/business-flows/$businessFlowId" params={{ businessFlowId }}>
          {t('upload.back')}
        </Link>
      </p>
      <h1 id="document-new-title">{t('upload.title')}</h1>
      <div className="split-layout">
        <form className="admin-form panel" noValidate onSubmit={(event) => void submit(event)}>
          <ApiErrorNotice error={failure} />
          <FileDrop
            label={t('upload.fileLabel')}
            hint={t('upload.fileHint')}
            file={file}
            errors={fileProblem ? [fileMessage(fileProblem)] : []}
            onFile={(chosen) => void choose(chosen)}
          />
          <FormField
            id="document-new-name"
            label={t('upload.name')}
            required
            maxLength={200}
            autoComplete="off"
            value={name}
            errors={nameProblem ? [nameProblem] : []}
            onChange={(event) => {
              setName(event.target.value);
              setNameProblem(null);
            }}
          />
          <SelectField
            id="document-new-type"
            label={t('upload.documentType')}
            value={documentType}
            options={DOCUMENT_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
            onChange={(event) => setDocumentType(event.target.value as DocumentType)}
          />
          <SelectField
            id="document-new-template"
            label={t('upload.template')}
            value={templateId}
            options={[
              { value: '', label: t('upload.templateNone') },
              ...(templates.data?.data ?? []).map((template) => ({
                value: template.id,
                label: template.attributes.name,
              })),
            ]}
            onChange={(event) => setTemplateId(event.target.value)}
          />
          <FormField
            id="document-new-system-link-id"
            label={t('upload.systemLinkId')}
            maxLength={100}
            autoComplete="off"
            value={systemLinkId}
            onChange={(event) => setSystemLinkId(event.target.value)}
          />
          <fieldset className="field">
            <legend>{t('properties.title')}</legend>
            <PropertyInputs
              fields={propertyFields}
              drafts={drafts}
              errors={propertyErrors}
              onChange={(propertyId, value) => setDrafts({ ...drafts, [propertyId]: value })}
            />
          </fieldset>
          {upload.progress !== null && (
            <progress className="upload-progress" aria-label={t('upload.progress')} max={1} value={upload.progress} />
          )}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={upload.pending}>
              {upload.pending ? t('upload.sending') : t('upload.submit')}
            </button>
          </div>
        </form>
        <section aria-labelledby="document-new-preview" className="panel">
          <h2 id="document-new-preview">{t('upload.previewTitle')}</h2>
          {file && <PdfViewer file={file} title={file.name} />}
        </section>
      </div>
    </section>
  );
}
