import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PagedTable, RowAction, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useEditAndDelete } from '../../../components/edit-and-delete.ts';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateFormat } from '../../../components/date-format.ts';
import {
  type BusinessFlowTemplate,
  type BusinessFlowTemplateSort,
  useBusinessFlowTemplates,
  useCreateBusinessFlowTemplate,
  useDeleteBusinessFlowTemplate,
  useUpdateBusinessFlowTemplate,
} from '../api/business-flow-templates.ts';
import { type FlowTemplateInput, flowTemplateAttributes } from '../validation.ts';
import { FlowTemplateForm } from './flow-template-form.tsx';

const EMPTY: FlowTemplateInput = { name: '', systemLinkId: '', comment: '', autoComplete: true, documents: [] };

function inputOf(template: BusinessFlowTemplate): FlowTemplateInput {
  const a = template.attributes;
  return {
    name: a.name,
    systemLinkId: a.systemLinkId ?? '',
    comment: a.comment ?? '',
    autoComplete: a.autoComplete,
    documents: a.documents.map((d) => ({ documentTemplateId: d.documentTemplateId, templateId: d.templateId })),
  };
}

/** The business flow templates tab: list for everyone; administrators create, edit and delete. */
export function FlowTemplatesPanel({ isAdmin }: { isAdmin: boolean }) {
  const { t, i18n } = useTranslation('templates');
  const list = useListParams<BusinessFlowTemplateSort>('name');
  const templates = useBusinessFlowTemplates(list.params);
  const create = useCreateBusinessFlowTemplate();
  const update = useUpdateBusinessFlowTemplate();
  const remove = useDeleteBusinessFlowTemplate();
  const { editing, setEditing, deleting, setDeleting, failure, confirmDelete } = useEditAndDelete<BusinessFlowTemplate>(
    remove.mutateAsync,
    t('delete.done'),
  );
  const date = japanDateFormat(i18n.language);
  const rows = templates.data?.data ?? [];
  const edited = rows.find((row) => row.id === editing);
  const sortable = sortHeaders(list);

  return (
    <>
      {isAdmin && editing === null && (
        <button type="button" className="button primary" onClick={() => setEditing('new')}>
          {t('list.createFlow')}
        </button>
      )}
      {isAdmin && editing === 'new' && (
        <section aria-labelledby="flow-template-form-title" className="panel">
          <h2 id="flow-template-form-title">{t('form.createFlowTitle')}</h2>
          <FlowTemplateForm
            initial={EMPTY}
            submitLabel={t('form.create')}
            onCancel={() => setEditing(null)}
            onSubmit={async (input) => {
              const created = await create.mutateAsync(flowTemplateAttributes(input));
              toast.success(t('form.created', { name: created.attributes.name }));
              setEditing(null);
            }}
          />
        </section>
      )}
      {isAdmin && edited && (
        <section aria-labelledby="flow-template-form-title" className="panel">
          <h2 id="flow-template-form-title">{t('form.editTitle', { name: edited.attributes.name })}</h2>
          <FlowTemplateForm
            key={`${edited.id}:${edited.attributes.lockVersion}`}
            initial={inputOf(edited)}
            submitLabel={t('form.save')}
            onCancel={() => setEditing(null)}
            onReload={() => void templates.refetch().then(() => toast.info(t('form.reloaded')))}
            onSubmit={async (input) => {
              const attributes = { ...flowTemplateAttributes(input), lockVersion: edited.attributes.lockVersion };
              await update.mutateAsync({ id: edited.id, attributes });
              toast.success(t('form.saved'));
              setEditing(null);
            }}
          />
        </section>
      )}
      <SearchBox
        id="flow-templates-search"
        label={t('list.searchFlows')}
        value={list.params.q}
        onSearch={list.setSearch}
      />
      <ApiErrorNotice error={failure} action={t('common:failure.actions.deleteTemplate')} />
      <PagedTable
        idPrefix="flow-templates"
        list={list}
        query={templates}
        rowCount={rows.length}
        emptyText={t('list.emptyFlows')}
        searching={list.params.q !== ''}
        tableLabel={t('list.flowsLabel')}
        header={
          <>
            {sortable('name', t('list.columns.name'))}
            <th scope="col">{t('list.columns.systemLinkId')}</th>
            <th scope="col">{t('list.columns.documents')}</th>
            <th scope="col">{t('list.columns.autoComplete')}</th>
            {sortable('updatedAt', t('list.columns.updatedAt'))}
            {isAdmin && <th scope="col">{t('list.columns.actions')}</th>}
          </>
        }
      >
        {rows.map((row) => (
          <tr key={row.id}>
            <td>{row.attributes.name}</td>
            <td>{row.attributes.systemLinkId ?? '—'}</td>
            <td>{row.attributes.documents.map((d) => `${d.templateId}: ${d.name}`).join(', ') || '—'}</td>
            <td>{row.attributes.autoComplete ? t('list.yes') : t('list.no')}</td>
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
        <p>{t('delete.bodyFlow')}</p>
      </ConfirmDialog>
    </>
  );
}
