import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { OpenedPdf } from '../../../components/pdf-controls.tsx';
import { CodeField } from '../../../components/signing/code-field.tsx';
import { SignErrorSummary, useSignSubmit } from '../../../components/signing/use-sign-submit.tsx';
import { MissingFieldsNotice } from '../../../components/signing/field-box.tsx';
import { keptPlacements, missingFields } from '../../../components/signing/fields.ts';
import { PlacementBoard } from '../../../components/signing/placement-board.tsx';
import type { Placement } from '../../../components/signing/placement.ts';
import type { SignDraft } from '../../../components/signing/sign-request.ts';
import { signOneTimeTask, useGuestStep, useRequestOneTimeSigningCode } from '../api/guest-flow.ts';
import type { GuestTask } from '../flow-model.ts';
import { SealUploadTool } from './seal-upload-tool.tsx';

/** The sign form under the pages: the e-mail code when the task asks for it, a comment, and the sign button. */
function GuestSignForm(props: { task: GuestTask; placements: Placement[]; onSigned: () => void }) {
  const { t } = useTranslation(['signing', 'oneTime']);
  const sign = useGuestStep(signOneTimeTask);
  const { errors, clear, failure, summary, submit } = useSignSubmit(sign.mutateAsync, props.onSigned);
  const codeRequest = useRequestOneTimeSigningCode();
  const [code, setCode] = useState('');
  const [comment, setComment] = useState('');
  const missingId = useId();
  const { task } = props;
  const missing = missingFields(task.fields, props.placements);
  // A guest has no phone on file: their second factor is always the proved e-mail address.
  const twoFactor = task.twoFactor === 'none' ? 'none' : 'email';

  const draft: SignDraft = {
    signatureType: task.signatureType,
    twoFactor,
    needs: { requiresPin: false, requiredPlacement: task.requiredPlacement },
    placements: props.placements,
    fields: task.fields,
    pin: '',
    code,
    principalId: '',
    comment,
  };

  return (
    <form className="sign-form" noValidate onSubmit={(event) => void submit(event, task.id, draft, task.lockVersion)}>
      <SignErrorSummary summary={summary} errors={errors} />
      {twoFactor === 'email' && (
        <CodeField
          channel="email"
          request={{
            isPending: codeRequest.isPending,
            error: codeRequest.error,
            data: codeRequest.data,
            send: () => codeRequest.mutate(task.id),
          }}
          value={code}
          errors={errors.code ?? []}
          onChange={(value) => {
            setCode(value);
            clear('code');
          }}
        />
      )}
      <div className="field">
        <label htmlFor="sign-comment">{t('form.comment')}</label>
        <textarea
          id="sign-comment"
          rows={2}
          maxLength={1000}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
        />
      </div>
      <ApiErrorNotice error={failure} />
      <div className="form-actions">
        <MissingFieldsNotice id={missingId} missing={missing} />
        <button
          type="submit"
          className="button primary"
          disabled={sign.isPending || missing.length > 0}
          aria-describedby={missing.length > 0 ? missingId : undefined}
        >
          {sign.isPending ? t('form.sending') : t('form.submit')}
        </button>
      </div>
    </form>
  );
}

/**
 * Signing as a guest: the document's pages with the fields the sender placed and the guest's own placements (a drawn
 * signature, a seal image uploaded on the spot, text), then the e-mail code if the task asks for it, and the
 * signature. The same placement rules and the same PAdES output as a member's signature.
 */
export function GuestSignPanel(props: { file: Blob; title: string; task: GuestTask; onSigned: () => void }) {
  const { t } = useTranslation('signing');
  const [placements, setPlacements] = useState<Placement[]>([]);
  const { fields, allowSignerPlacements } = props.task;
  // A plan changed under the open screen: fillings of fields it no longer has are dropped, not sent.
  useEffect(
    () => setPlacements((current) => keptPlacements(current, fields, allowSignerPlacements)),
    [fields, allowSignerPlacements],
  );
  return (
    <>
      <section aria-labelledby="sign-placements-title" className="panel">
        <h2 id="sign-placements-title">{t('placements.title')}</h2>
        <p className="hint">{t(props.task.fields.length > 0 ? 'fields.intro' : 'placements.intro')}</p>
        <OpenedPdf namespace="signing" file={props.file}>
          {(pdf) => (
            <PlacementBoard
              pdf={pdf}
              title={props.title}
              placements={placements}
              onChange={setPlacements}
              sealTool={SealUploadTool}
              fields={props.task.fields}
              allowOwn={props.task.allowSignerPlacements}
            />
          )}
        </OpenedPdf>
      </section>
      <section aria-labelledby="sign-form-title" className="panel">
        <h2 id="sign-form-title">{t('form.title')}</h2>
        <GuestSignForm task={props.task} placements={placements} onSigned={props.onSigned} />
      </section>
    </>
  );
}
