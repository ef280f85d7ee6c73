import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type DragEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { usePlanFeature } from '../../../components/plan-gate.tsx';
import { createDraftFlow, getDraftTasks, renameDraftFlow } from '../api/draft-flow.ts';
import { listWizardTemplates, listWizardWorkspaces } from '../api/recipients.ts';
import { uploadDraftDocument } from '../api/upload-draft-document.ts';
import { useAction } from '../use-action.ts';
import type { Draft } from '../wizard-draft.ts';
import { fieldsOf, recipientsOf, titleFromFile } from '../wizard-state.ts';
import { WizardFooter } from './wizard-footer.tsx';

const MAX_MB = 30;

/**
 * ① 書類: drop or choose one or more PDFs; the title defaults to the first file's name and the workspace to the first
 * one the user may edit. Next creates the draft (from a flow template when one is chosen) and uploads the files.
 */
export function DocumentsStep(props: {
  draft: Draft | null;
  initialWorkspaceId?: string;
  onSaved: (draft: Draft) => void;
}) {
  const { t } = useTranslation('sendWizard');
  const id = useId();
  // A draft created by a first attempt whose upload then failed: a retry goes on with it instead of making another.
  const [made, setMade] = useState<Draft | null>(null);
  const draft = props.draft ?? made;
  const workspaces = useQuery({ queryKey: ['workspaces', 'wizard'], queryFn: listWizardWorkspaces });
  // Templates are a plan feature: on a plan without them the wizard does not ask (the API would answer 403).
  const templatesAllowed = usePlanFeature('templates').available;
  const templates = useQuery({
    queryKey: ['templates', 'wizard'],
    queryFn: listWizardTemplates,
    enabled: templatesAllowed,
  });
  const [files, setFiles] = useState<File[]>([]);
  const [title, setTitle] = useState(draft?.name ?? '');
  const [workspaceId, setWorkspaceId] = useState(draft?.workspaceId ?? props.initialWorkspaceId ?? '');
  const [flowTemplateId, setFlowTemplateId] = useState('');
  const [documentTemplateId, setDocumentTemplateId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const save = useAction();
  const chosenWorkspace = workspaceId || workspaces.data?.[0]?.id || '';
  const effectiveTitle = title.trim() || (files[0] ? titleFromFile(files[0].name) : '');

  const addFiles = (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    const bad = chosen.find((file) => !/\.pdf$/i.test(file.name) && file.type !== 'application/pdf');
    const big = chosen.find((file) => file.size > MAX_MB * 1024 * 1024);
    setProblem(bad ? t('documents.notPdf', { name: bad.name }) : big ? t('documents.tooLarge', { max: MAX_MB }) : null);
    const ok = chosen.filter((file) => file !== bad && file !== big && file.size > 0);
    setFiles((current) => [...current, ...ok]);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  const next = () =>
    void save.run(async () => {
      let current = draft;
      if (!current) {
        const flow = await createDraftFlow({
          workspaceId: chosenWorkspace,
          name: effectiveTitle,
          businessFlowTemplateId: flowTemplateId || undefined,
        });
        current = {
          flowId: flow.id,
          name: flow.attributes.name,
          workspaceId: flow.attributes.workspace.id,
          workspaceName: flow.attributes.workspace.name,
          lockVersion: flow.attributes.lockVersion,
          documents: [],
          recipients: [],
          fields: {},
        };
        setMade(current);
      } else if (effectiveTitle && effectiveTitle !== current.name) {
        const flow = await renameDraftFlow({
          businessFlowId: current.flowId,
          name: effectiveTitle,
          lockVersion: current.lockVersion,
        });
        current = { ...current, name: flow.attributes.name, lockVersion: flow.attributes.lockVersion };
      }
      const documents = [...current.documents];
      for (const file of files) {
        const document = await uploadDraftDocument({
          businessFlowId: current.flowId,
          file,
          documentTemplateId: documentTemplateId || undefined,
        });
        documents.push({ id: document.id, name: document.attributes.name, file });
        setFiles((left) => left.filter((f) => f !== file));
        setMade({ ...current, documents: [...documents] });
      }
      let { recipients, fields } = current;
      // A document template brings its task plan: the wizard takes it as the recipients to start from.
      if (recipients.length === 0 && documents[0]) {
        const plan = await getDraftTasks(documents[0].id);
        recipients = recipientsOf(plan.data);
        fields = { ...fields, [documents[0].id]: fieldsOf(plan.data, recipients) };
      }
      props.onSaved({ ...current, documents, recipients, fields });
    });

  const noWorkspace = workspaces.isSuccess && workspaces.data.length === 0;
  const nothing = (draft?.documents.length ?? 0) + files.length === 0;
  return (
    <div className="wizard-step-body">
      <h2>{t('documents.heading')}</h2>
      {noWorkspace && <p className="notice">{t('documents.noWorkspace')}</p>}
      <ApiErrorNotice error={workspaces.error} />
      <div
        className={dragging ? 'wizard-drop dragging' : 'wizard-drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>{t('documents.dropHint')}</p>
        <label htmlFor={`${id}-files`} className="button">
          {t('documents.choose')}
        </label>
        <input
          id={`${id}-files`}
          className="visually-hidden"
          type="file"
          accept="application/pdf,.pdf"
          multiple
          aria-label={t('documents.choose')}
          onChange={(event) => {
            addFiles(event.target.files);
            event.target.value = '';
          }}
        />
        {problem && (
          <p role="alert" className="field-error">
            {problem}
          </p>
        )}
      </div>
      {(draft?.documents.length ?? 0) + files.length > 0 && (
        <ul className="wizard-files" aria-label={t('documents.listLabel')}>
          {draft?.documents.map((d) => (
            <li key={d.id}>
              <span>{d.name}</span> <span className="muted">{t('documents.uploaded')}</span>
            </li>
          ))}
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              <span>{file.name}</span>{' '}
              <button
                type="button"
                className="button small"
                onClick={() => setFiles((current) => current.filter((f) => f !== file))}
              >
                {t('documents.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="wizard-grid">
        <div className="field">
          <label htmlFor={`${id}-title`}>{t('documents.title')}</label>
          <input
            id={`${id}-title`}
            maxLength={100}
            value={title}
            placeholder={files[0] ? titleFromFile(files[0].name) : ''}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-workspace`}>{t('documents.workspace')}</label>
          <select
            id={`${id}-workspace`}
            value={chosenWorkspace}
            disabled={Boolean(draft)}
            onChange={(event) => setWorkspaceId(event.target.value)}
          >
            {draft && !workspaces.data?.some((w) => w.id === draft.workspaceId) && (
              <option value={draft.workspaceId}>{draft.workspaceName}</option>
            )}
            {workspaces.data?.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {((templates.data?.flows.length ?? 0) > 0 || (templates.data?.documents.length ?? 0) > 0) && (
        <details className="wizard-templates">
          <summary>{t('documents.templates')}</summary>
          <div className="wizard-grid">
            {!draft && (templates.data?.flows.length ?? 0) > 0 && (
              <div className="field">
                <label htmlFor={`${id}-flow-template`}>{t('documents.flowTemplate')}</label>
                <select
                  id={`${id}-flow-template`}
                  value={flowTemplateId}
                  onChange={(event) => setFlowTemplateId(event.target.value)}
                >
                  <option value="">{t('documents.none')}</option>
                  {templates.data?.flows.map((tpl) => (
                    <option key={tpl.id} value={tpl.id}>
                      {tpl.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {(templates.data?.documents.length ?? 0) > 0 && (
              <div className="field">
                <label htmlFor={`${id}-document-template`}>{t('documents.documentTemplate')}</label>
                <select
                  id={`${id}-document-template`}
                  value={documentTemplateId}
                  onChange={(event) => setDocumentTemplateId(event.target.value)}
                >
                  <option value="">{t('documents.none')}</option>
                  {templates.data?.documents.map((tpl) => (
                    <option key={tpl.id} value={tpl.id}>
                      {tpl.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
          <p className="hint">{t('documents.templatesHint')}</p>
        </details>
      )}
      {!draft && (
        <p className="hint">
          <Link
            to="/organizations/business-flows/new/details"
            search={chosenWorkspace ? { workspaceId: chosenWorkspace } : {}}
          >
            {t('documents.detailsLink')}
          </Link>
        </p>
      )}
      <WizardFooter
        draft={draft}
        nextLabel={t('next')}
        pending={save.pending}
        error={save.error}
        action={t('actions.saveDocuments')}
        nextDisabled={nothing || !chosenWorkspace || !effectiveTitle}
        onNext={next}
      />
    </div>
  );
}
