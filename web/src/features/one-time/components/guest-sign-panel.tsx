import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice, useErrorText } from '../../../components/api-error-notice.tsx';
import { OpenedPdf } from '../../../components/pdf-controls.tsx';
import { CodeField } from '../../../components/signing/code-field.tsx';
import { MissingFieldsNotice } from '../../../components/signing/field-box.tsx';
import { keptPlacements, missingFields } from '../../../components/signing/fields.ts';
import { PlacementBoard } from '../../../components/signing/placement-board.tsx';
import type { Placement } from '../../../components/signing/placement.ts';
import {
  fieldOfPointer,
  type SignDraft,
  type SignField,
  signAttributes,
  signProblems,
} from '../../../components/signing/sign-request.ts';
import { signOneTimeTask, useGuestStep, useRequestOneTimeSigningCode } from '../api/guest-flow.ts';
import type { GuestTask } from '../flow-model.ts';
import { SealUploadTool } from './seal-upload-tool.tsx';

type FieldErrors = Partial<Record<SignField, string[]>>;

/** The sign form under the pages: the e-mail code when the task asks for it, a comment, and the sign button. */
function GuestSignForm(props: { task: GuestTask; placements: Placement[]; onSigned: () => void }) {
  const { t } = useTranslation(['signing', 'oneTime']);
  const errorText = useErrorText();
  const sign = useGuestStep(signOneTimeTask);
  const codeRequest = useRequestOneTimeSigningCode();
  const summary = useRef<HTMLDivElement>(null);
  const [code, setCode] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: FieldErrors = {};
    for (const problem of signProblems(draft)) (found[problem.field] ??= []).push(t(`form.${problem.key}`));
    setErrors(found);
    if (Object.keys(found).length > 0) {
      summary.current?.focus();
      return;
    }
    try {
      await sign.mutateAsync({ taskId: task.id, attributes: signAttributes(draft, task.lockVersion) });
      props.onSigned();
    } catch (error) {
      const placed: FieldErrors = {};
      if (error instanceof ApiError) {
        for (const item of error.errors) {
          const field = fieldOfPointer(item.source?.pointer);
          if (field) (placed[field] ??= []).push(errorText(new ApiError(error.status, [item])));
        }
      }
      setErrors(placed);
      if (Object.keys(placed).length === 0) setFailure(error);
      else summary.current?.focus();
    }
  };

  const listed = Object.values(errors).flatMap((messages) => messages ?? []);
  return (
    <form className="sign-form" noValidate onSubmit={(event) => void submit(event)}>
      <div ref={summary} tabIndex={-1} role={listed.length > 0 ? 'alert' : undefined} className="task-summary">
        {listed.length > 0 && (
          <div className="form-error">
            <p>{t('form.summaryTitle')}</p>
            <ul>
              {listed.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
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
            setErrors({ ...errors, code: undefined });
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
