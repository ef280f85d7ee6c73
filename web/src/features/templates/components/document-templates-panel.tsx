import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PagedTable, RowAction, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useEditAndDelete } from '../../../components/edit-and-delete.ts';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateFormat } from '../../../components/date-format.ts';
import {
  type DocumentTemplate,
  type DocumentTemplateSort,
  useCreateDocumentTemplate,
  useDeleteDocumentTemplate,
  useDocumentTemplates,
  useUpdateDocumentTemplate,
} from '../api/document-templates.ts';
import { type DocumentTemplateInput, documentTemplateAttributes } from '../validation.ts';
import { DocumentTemplateForm, type ReadingPositionsSlot } from './document-template-form.tsx';

const EMPTY: DocumentTemplateInput = {
  name: '',
  systemLinkId: '',
  documentType: 'contract',
  tasks: [],
  readingPositions: [],
};

function inputOf(template: DocumentTemplate): DocumentTemplateInput {
  const a = template.attributes;
  return {
    name: a.name,
    systemLinkId: a.systemLinkId ?? '',
    documentType: a.documentType,
    tasks: a.tasks.map((task) => ({
      order: String(task.order),
      type: task.type,
      groupId: task.assignee.groupId,
      roleId: task.roleId ?? '',
      required: task.required,
      templateId: task.templateId ?? '',
    })),
    readingPositions: a.readingPositions,
  };
}

/**
 * The document templates tab: list for everyone; administrators create, edit and delete. `readingPositions` is the
 * AI-OCR feature's editor, shown in the form when the route gives it.
 */
export function DocumentTemplatesPanel({
  isAdmin,
  readingPositions,
}: {
  isAdmin: boolean;
  readingPositions?: ReadingPositionsSlot;
}) {
  const { t, i18n } = useTranslation('templates');
  const list = useListParams<DocumentTemplateSort>('name');
  const templates = useDocumentTemplates(list.params);
  const create = useCreateDocumentTemplate();
  const update = useUpdateDocumentTemplate();
  const remove = useDeleteDocumentTemplate();
  const { editing, setEditing, deleting, setDeleting, failure, confirmDelete } = useEditAndDelete<DocumentTemplate>(
    remove.mutateAsync,
    t('delete.done'),
  );
  const date = japanDateFormat(i18n.language);
  const rows = templates.data?.data ?? [];
  const edited = rows.find((row) => row.id === editing);
  const sortable = sortHeaders(list);
  // The open form is drawn anew only when it is reloaded after a refusal: a sample upload changes the template's
  // lockVersion in the list, and what was typed must stay.
  const [reloads, setReloads] = useState(0);

  return (
    <>
      {isAdmin && editing === null && (
        <button type="button" className="button primary" onClick={() => setEditing('new')}>
          {t('list.createDocument')}
        </button>
      )}
      {isAdmin && editing === 'new' && (
        <section aria-labelledby="document-template-form-title" className="panel">
          <h2 id="document-template-form-title">{t('form.createDocumentTitle')}</h2>
          <DocumentTemplateForm
            initial={EMPTY}
            readingPositions={readingPositions}
            submitLabel={t('form.create')}
            onCancel={() => setEditing(null)}
            onSubmit={async (input) => {
              const created = await create.mutateAsync(documentTemplateAttributes(input));
              toast.success(t('form.created', { name: created.attributes.name }));
              setEditing(null);
            }}
          />
        </section>
      )}
      {isAdmin && edited && (
        <section aria-labelledby="document-template-form-title" className="panel">
          <h2 id="document-template-form-title">{t('form.editTitle', { name: edited.attributes.name })}</h2>
          <DocumentTemplateForm
            key={`${edited.id}:${reloads}`}
            initial={inputOf(edited)}
            template={edited}
            readingPositions={readingPositions}
            submitLabel={t('form.save')}
            onCancel={() => setEditing(null)}
            onReload={() =>
              void templates.refetch().then(() => {
                setReloads((count) => count + 1);
                toast.info(t('form.reloaded'));
              })
            }
            onSubmit={async (input, lockVersion) => {
              const attributes = {
                ...documentTemplateAttributes(input),
                lockVersion: lockVersion ?? edited.attributes.lockVersion,
              };
              await update.mutateAsync({ id: edited.id, attributes });
              toast.success(t('form.saved'));
              setEditing(null);
            }}
          />
        </section>
      )}
      <SearchBox
        id="document-templates-search"
        label={t('list.searchDocuments')}
        value={list.params.q}
        onSearch={list.setSearch}
      />
      <ApiErrorNotice error={failure} action={t('common:failure.actions.deleteTemplate')} />
      <PagedTable
        idPrefix="document-templates"
        list={list}
        query={templates}
        rowCount={rows.length}
        emptyText={t('list.emptyDocuments')}
        searching={list.params.q !== ''}
        tableLabel={t('list.documentsLabel')}
        header={
          <>
            {sortable('name', t('list.columns.name'))}
            <th scope="col">{t('list.columns.systemLinkId')}</th>
            <th scope="col">{t('list.columns.documentType')}</th>
            <th scope="col">{t('list.columns.taskCount')}</th>
            <th scope="col">{t('list.columns.usedBy')}</th>
            {sortable('updatedAt', t('list.columns.updatedAt'))}
            {isAdmin && <th scope="col">{t('list.columns.actions')}</th>}
          </>
        }
      >
        {rows.map((row) => (
          <tr key={row.id}>
            <td>{row.attributes.name}</td>
            <td>{row.attributes.systemLinkId ?? '—'}</td>
            <td>{t(`documentTypes.${row.attributes.documentType}`)}</td>
            <td className="cell-number">{row.attributes.tasks.length}</td>
            <td className="cell-number">{row.attributes.usedBy}</td>
            <td>{date.format(new Date(row.attributes.updatedAt))}</td>
            {isAdmin && (
              <td>
                <div className="row-actions">
                  <RowAction
                    label={t('list.editLabel', { name: row.attributes.name })}
                    onClick={() => setEditing(row.id)}
                  >
                    {t('list.edit')}
                  </RowAction>
                  <RowAction
                    label={t('list.deleteLabel', { name: row.attributes.name })}
                    danger
                    onClick={() => setDeleting(row)}
                  >
                    {t('list.delete')}
                  </RowAction>
                </div>
              </td>
            )}
          </tr>
        ))}
      </PagedTable>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t('delete.title', { name: deleting.attributes.name }) : ''}
        confirmLabel={t('delete.confirm')}
        danger
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('delete.bodyDocument')}</p>
      </ConfirmDialog>
    </>
  );
}
