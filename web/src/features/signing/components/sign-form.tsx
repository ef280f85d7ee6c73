import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import type { SignTask } from '../api/get-sign-task.ts';
import { usePrincipals } from '../api/list-principals.ts';
import { useSignTask } from '../api/sign-task.ts';
import { CodeField } from '../../../components/signing/code-field.tsx';
import { SignErrorSummary, useSignSubmit } from '../../../components/signing/use-sign-submit.tsx';
import { MissingFieldsNotice } from '../../../components/signing/field-box.tsx';
import { missingFields, type SignerField } from '../../../components/signing/fields.ts';
import type { Placement } from '../../../components/signing/placement.ts';
import { type SignDraft, type TypeNeeds } from '../../../components/signing/sign-request.ts';
import { useRequestSigningCode } from '../api/request-signing-code.ts';
import { EmailConfirmationNotice } from './email-confirmation-notice.tsx';

function PrincipalField(props: { value: string; errors: string[]; onChange: (userId: string) => void }) {
  const { t } = useTranslation('signing');
  const principals = usePrincipals(true);
  const list = principals.data ?? [];
  return (
    <div className="sign-principal">
      <SelectField
        id="sign-principal"
        label={t('form.principal')}
        value={props.value}
        aria-invalid={props.errors.length > 0 || undefined}
        options={[
          { value: '', label: t('form.principalNone') },
          ...list.map((p) => ({
            value: p.userId,
            label: t('form.principalOption', { name: p.name, status: t(`certificateStatuses.${p.certificateStatus}`) }),
          })),
        ]}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {principals.isSuccess && list.length === 0 && <p className="notice">{t('form.noPrincipals')}</p>}
      <ApiErrorNotice error={principals.error} />
      {props.errors.length > 0 && (
        <div className="field-error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * What the task's signature type asks before signing (the principal of a proxy signature, the e-certificate's PIN,
 * the two-factor code) and the sign button; without a confirmed e-mail address, the confirmation notice instead.
 */
export function SignForm(props: {
  task: SignTask;
  needs: TypeNeeds | undefined;
  placements: Placement[];
  /** The fields the sender placed for this signer: the sign button waits until every required one is filled. */
  fields: SignerField[];
  email: string;
  emailConfirmed: boolean;
  onReloadUser: () => void;
  onSigned: () => void;
}) {
  const { t } = useTranslation('signing');
  const sign = useSignTask();
  const { errors, clear, failure, summary, submit } = useSignSubmit(sign.mutateAsync, props.onSigned);
  const codeRequest = useRequestSigningCode();
  const [pin, setPin] = useState('');
  const [code, setCode] = useState('');
  const [principalId, setPrincipalId] = useState('');
  const [comment, setComment] = useState('');
  const missingId = useId();
  const { signatureType, twoFactor, lockVersion } = props.task.attributes;
  const missing = missingFields(props.fields, props.placements);

  const draft: SignDraft = {
    signatureType,
    twoFactor,
    needs: props.needs,
    placements: props.placements,
    fields: props.fields,
    pin,
    code,
    principalId,
    comment,
  };

  return (
    <form className="sign-form" noValidate onSubmit={(event) => void submit(event, props.task.id, draft, lockVersion)}>
      <SignErrorSummary summary={summary} errors={errors} />
      {signatureType === 'proxy' && (
        <PrincipalField
          value={principalId}
          errors={errors.principal ?? []}
          onChange={(value) => {
            setPrincipalId(value);
            clear('principal');
          }}
        />
      )}
      {props.needs?.requiresPin && (
        <FormField
          id="sign-pin"
          type="password"
          label={t('form.pin')}
          hint={
            <>
              {t('form.pinHint')} <Link to="/organizations/settings/e-certificate">{t('form.certificateLink')}</Link>
            </>
          }
          autoComplete="off"
          maxLength={128}
          value={pin}
          errors={errors.pin ?? []}
          onChange={(event) => {
            setPin(event.target.value);
            clear('pin');
          }}
        />
      )}
      {twoFactor !== 'none' && (
        <CodeField
          channel={twoFactor}
          request={{
            isPending: codeRequest.isPending,
            error: codeRequest.error,
            data: codeRequest.data,
            send: () => codeRequest.mutate(props.task.id),
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
      {props.emailConfirmed ? (
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
      ) : (
        <EmailConfirmationNotice email={props.email} onReload={props.onReloadUser} />
      )}
    </form>
  );
}
