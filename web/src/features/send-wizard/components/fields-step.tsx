import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { OpenedPdf } from '../../../components/pdf-controls.tsx';
import { downloadDraftFile } from '../api/draft-flow.ts';
import { useAction } from '../use-action.ts';
import type { Draft } from '../wizard-draft.ts';
import { signersOf, type WizardField } from '../wizard-state.ts';
import { FieldsBoard } from './fields-board.tsx';
import { savePlans } from './recipients-step.tsx';
import { useRecipientName } from './recipient-row.tsx';
import { WizardFooter } from './wizard-footer.tsx';

/**
 * ③ 署名欄: for each signer, boxes on the document's pages (signature, seal, handwriting, text) that the signer then
 * fills, and whether the signer may add boxes of their own. Next saves every document's plan with its fields.
 */
export function FieldsStep(props: {
  draft: Draft;
  onChange: (patch: Partial<Draft>) => void;
  onBack: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('sendWizard');
  const id = useId();
  const nameOf = useRecipientName();
  const { draft } = props;
  const signers = signersOf(draft.recipients);
  const [documentId, setDocumentId] = useState(draft.documents[0]?.id ?? '');
  const [activeKey, setActiveKey] = useState(signers[0]?.key ?? '');
  const document = draft.documents.find((d) => d.id === documentId) ?? draft.documents[0];
  const file = useQuery({
    queryKey: ['documents', 'file', document?.id],
    queryFn: () => downloadDraftFile(document?.id ?? ''),
    enabled: Boolean(document && !document.file),
    staleTime: Infinity,
    // A file still being scanned for malware is fetched again until the verdict (about two minutes at most).
    retry: (count, error) => error instanceof ApiError && error.code === 'DOCUMENT_BEING_SCANNED' && count < 40,
    retryDelay: 3000,
  });
  const blob = document?.file ?? file.data;
  const save = useAction();
  const active = signers.find((s) => s.key === activeKey) ?? signers[0];

  const setFields = (signerKey: string, fields: WizardField[]) => {
    if (!document) return;
    props.onChange({
      fields: { ...draft.fields, [document.id]: { ...draft.fields[document.id], [signerKey]: fields } },
    });
  };
  const setAllowOwn = (allowOwn: boolean) =>
    props.onChange({ recipients: draft.recipients.map((r) => (r.key === active?.key ? { ...r, allowOwn } : r)) });

  const next = () =>
    void save.run(async () => {
      await savePlans(draft);
      props.onSaved();
    });

  const boardSigners = signers.map((s, index) => ({
    key: s.key,
    name: nameOf(s),
    // On the page a box carries the short name (no address), to stay readable in a small box.
    shortName: s.assignee.name,
    colour: index % 4,
  }));
  const countOf = (key: string) =>
    draft.documents.reduce((sum, d) => sum + (draft.fields[d.id]?.[key]?.length ?? 0), 0);
  return (
    <div className="wizard-step-body">
      <h2>{t('fields.heading')}</h2>
      {signers.length === 0 ? (
        <p className="notice">{t('fields.noSigners')}</p>
      ) : (
        <div className="split-layout wizard-fields">
          <div className="wizard-fields-page">
            {draft.documents.length > 1 && (
              <div className="field">
                <label htmlFor={`${id}-document`}>{t('fields.document')}</label>
                <select id={`${id}-document`} value={document?.id} onChange={(e) => setDocumentId(e.target.value)}>
                  {draft.documents.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <ApiErrorNotice error={file.error} action={t('actions.openDocument')} />
            {file.isPending && file.failureReason !== null && (
              <p role="status" className="muted">
                {t('fields.scanning')}
              </p>
            )}
            {blob && document && active && (
              <OpenedPdf key={document.id} namespace="sendWizard" file={blob}>
                {(pdf) => (
                  <FieldsBoard
                    pdf={pdf}
                    title={document.name}
                    signers={boardSigners}
                    activeKey={active.key}
                    fields={draft.fields[document.id] ?? {}}
                    onFields={setFields}
                  />
                )}
              </OpenedPdf>
            )}
          </div>
          <div className="wizard-fields-side">
            <fieldset className="wizard-signers">
              <legend>{t('fields.signers')}</legend>
              {boardSigners.map((signer) => (
                <label key={signer.key} className={`wizard-signer signer-colour-${signer.colour}`}>
                  <input
                    type="radio"
                    name={`${id}-signer`}
                    checked={signer.key === active?.key}
                    onChange={() => setActiveKey(signer.key)}
                  />
                  <span>{signer.name}</span>
                  <span className="muted">{t('fields.count', { count: countOf(signer.key) })}</span>
                </label>
              ))}
            </fieldset>
            {active && (
              <div className="checkbox wizard-allow-own">
                <input
                  id={`${id}-allow-own`}
                  type="checkbox"
                  checked={active.allowOwn}
                  onChange={(event) => setAllowOwn(event.target.checked)}
                />
                <label htmlFor={`${id}-allow-own`}>{t('fields.allowOwn', { name: nameOf(active) })}</label>
              </div>
            )}
            <p className="hint">{t('fields.hint')}</p>
          </div>
        </div>
      )}
      <WizardFooter
        draft={draft}
        nextLabel={t('next')}
        pending={save.pending}
        error={save.error}
        action={t('actions.saveFields')}
        onBack={props.onBack}
        onNext={next}
      />
    </div>
  );
}
