import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice, useErrorText } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { japanDateFormat, japanDateTimeFormat } from '../../../components/date-format.ts';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useDeleteMyECertificate } from '../api/delete-my-e-certificate.ts';
import { type ECertificate, type ECertificateStatus, useMyECertificate } from '../api/get-my-e-certificate.ts';
import { useRegisterMyECertificate } from '../api/register-my-e-certificate.ts';
import { InvalidCertificateNotice } from '../components/invalid-certificate-notice.tsx';
import { certificateProblem } from '../file-checks.ts';
import '../e-certificates.css';

registerCatalogue('signing', { ja, en });

const STATUS_BADGE: Record<ECertificateStatus, string> = {
  not_registered: 'badge badge-muted',
  valid: 'badge badge-ok',
  near_expiry: 'badge badge-warn',
  expired: 'badge badge-danger',
  invalid: 'badge badge-danger',
};

type Field = 'file' | 'pin' | 'pinConfirmation';

/** One fact of the certificate, left out while the certificate does not carry it. */
function Fact({ label, value, className }: { label: string; value: ReactNode; className?: string }) {
  if (!value) return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{value}</dd>
    </div>
  );
}

function CertificateFacts({ certificate }: { certificate: ECertificate }) {
  const { t, i18n } = useTranslation('signing');
  const a = certificate.attributes;
  const day = japanDateFormat(i18n.language);
  const time = japanDateTimeFormat(i18n.language);
  return (
    <dl className="facts">
      <Fact
        label={t('certificate.status')}
        value={<span className={STATUS_BADGE[a.status]}>{t(`certificateStatuses.${a.status}`)}</span>}
      />
      <Fact
        label={t('certificate.validUntil')}
        value={a.notAfter && <time dateTime={a.notAfter}>{day.format(new Date(a.notAfter))}</time>}
      />
      <Fact label={t('certificate.subject')} value={a.subject} />
      <Fact label={t('certificate.issuer')} value={a.issuer} />
      <Fact label={t('certificate.serialNumber')} value={a.serialNumber} className="report-code" />
      <Fact label={t('certificate.keyAlgorithm')} value={a.keyAlgorithm} />
      <Fact label={t('certificate.validFrom')} value={a.notBefore && time.format(new Date(a.notBefore))} />
      <Fact label={t('certificate.revokedAt')} value={a.revokedAt && time.format(new Date(a.revokedAt))} />
      <Fact
        label={t('certificate.revocationReason')}
        value={a.revocationReason && t(`revocationReasons.${a.revocationReason}`, { defaultValue: a.revocationReason })}
      />
      <Fact
        label={t('certificate.revocationCheckedAt')}
        value={a.revocationCheckedAt && time.format(new Date(a.revocationCheckedAt))}
      />
    </dl>
  );
}

function RegisterForm({ replacing }: { replacing: boolean }) {
  const { t } = useTranslation(['signing', 'errors']);
  const errorText = useErrorText();
  const register = useRegisterMyECertificate();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [pin, setPin] = useState('');
  const [pinConfirmation, setPinConfirmation] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string[]>>>({});
  const [failure, setFailure] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: Partial<Record<Field, string[]>> = {};
    const fileProblem = certificateProblem(file);
    if (fileProblem) found.file = [t(`errors:${fileProblem.code}`, fileProblem.params ?? {})];
    if (pin === '') found.pin = [t('certificate.pinRequired')];
    else if (pin !== pinConfirmation) found.pinConfirmation = [t('errors:E_CERTIFICATE_PIN_MISMATCH')];
    setErrors(found);
    if (Object.keys(found).length > 0 || !file) return;
    try {
      await register.mutateAsync({ file, pin, pinConfirmation });
      toast.success(t('certificate.registered'));
      setFile(null);
      setPin('');
      setPinConfirmation('');
      if (input.current) input.current.value = '';
    } catch (error) {
      if (!(error instanceof ApiError)) return setFailure(error);
      // The PIN codes belong next to the PIN; file codes next to the file; anything else above the form.
      const code = error.code;
      if (code === 'E_CERTIFICATE_PIN_WRONG') setErrors({ pin: [errorText(error)] });
      else if (code === 'E_CERTIFICATE_PIN_MISMATCH') setErrors({ pinConfirmation: [errorText(error)] });
      else if (code.startsWith('FILE_') || code.startsWith('E_CERTIFICATE_')) setErrors({ file: [errorText(error)] });
      else setFailure(error);
    }
  };

  return (
    <form className="panel admin-form" noValidate onSubmit={(event) => void submit(event)}>
      <h2>{t(replacing ? 'certificate.replaceTitle' : 'certificate.registerTitle')}</h2>
      <p className="hint">{t('certificate.registerHint')}</p>
      <ApiErrorNotice error={failure} />
      <div className="field">
        <label htmlFor="certificate-file">{t('certificate.file')}</label>
        <p id="certificate-file-hint" className="hint">
          {t('certificate.fileHint')}
        </p>
        <input
          ref={input}
          id="certificate-file"
          type="file"
          accept=".p12,.pfx,application/x-pkcs12"
          aria-describedby={errors.file ? 'certificate-file-hint certificate-file-error' : 'certificate-file-hint'}
          aria-invalid={errors.file ? true : undefined}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setErrors({ ...errors, file: undefined });
          }}
        />
        {errors.file && (
          <div id="certificate-file-error" className="field-error">
            {errors.file.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        )}
      </div>
      <FormField
        id="certificate-pin"
        type="password"
        label={t('certificate.pin')}
        autoComplete="off"
        maxLength={128}
        value={pin}
        errors={errors.pin ?? []}
        onChange={(event) => setPin(event.target.value)}
      />
      <FormField
        id="certificate-pin-confirmation"
        type="password"
        label={t('certificate.pinConfirmation')}
        autoComplete="off"
        maxLength={128}
        value={pinConfirmation}
        errors={errors.pinConfirmation ?? []}
        onChange={(event) => setPinConfirmation(event.target.value)}
      />
      <FormActions
        pending={register.isPending}
        submitLabel={t('certificate.register')}
        sendingLabel={t('certificate.registering')}
      />
    </form>
  );
}

/** The caller's e-certificate: its status and validity date, register (or replace) with its PIN, and delete. */
export function ECertificatePage() {
  const { t } = useTranslation(['signing', 'common']);
  const certificate = useMyECertificate();
  const remove = useDeleteMyECertificate();
  const [deleting, setDeleting] = useState(false);
  const data = certificate.data;
  const registered = data !== undefined && data.attributes.status !== 'not_registered';

  useEffect(() => {
    document.title = `${t('certificate.title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="certificate-title" className="admin-screen">
      <h1 id="certificate-title">{t('certificate.title')}</h1>
      <p>{t('certificate.intro')}</p>
      {certificate.isPending && (
        <p role="status" className="muted">
          {t('certificate.loading')}
        </p>
      )}
      <ApiErrorNotice error={certificate.error} />
      {data && (
        <>
          <section aria-labelledby="certificate-status-title" className="panel">
            <h2 id="certificate-status-title">{t('certificate.statusTitle')}</h2>
            <InvalidCertificateNotice certificate={data} />
            <CertificateFacts certificate={data} />
            {data.attributes.status === 'near_expiry' && <p className="notice">{t('certificate.nearExpiry')}</p>}
            {data.attributes.pinLocked && (
              <p role="status" className="notice">
                {t('errors:E_CERTIFICATE_PIN_LOCKED')}
              </p>
            )}
            {registered && (
              <div className="task-actions">
                <Link className="button" to="/organizations/settings/agents">
                  {t('certificate.agentsLink')}
                </Link>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => {
                    remove.reset();
                    setDeleting(true);
                  }}
                >
                  {t('certificate.delete')}
                </button>
              </div>
            )}
          </section>
          <RegisterForm replacing={registered} />
        </>
      )}
      <ConfirmDialog
        open={deleting}
        title={t('certificate.deleteTitle')}
        confirmLabel={t('certificate.delete')}
        danger
        pending={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              toast.success(t('certificate.deleted'));
              setDeleting(false);
            },
          })
        }
      >
        <p>{t('certificate.deleteBody')}</p>
        <ApiErrorNotice error={remove.error} />
      </ConfirmDialog>
    </section>
  );
}
