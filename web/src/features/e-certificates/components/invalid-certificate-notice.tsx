import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { ECertificate } from '../api/get-my-e-certificate.ts';

/**
 * Why an invalid e-certificate cannot sign, in the user's words: revoked by its issuer (when and why), not valid
 * yet, or, for a reason this version does not know, that it cannot be used.
 */
export function InvalidCertificateNotice({ certificate }: { certificate: ECertificate }) {
  const { t, i18n } = useTranslation('signing');
  const a = certificate.attributes;
  if (a.status !== 'invalid') return null;
  const time = japanDateTimeFormat(i18n.language);
  const format = (value: string) => (Number.isNaN(new Date(value).getTime()) ? value : time.format(new Date(value)));
  let message: string;
  if (a.invalidReason === 'revoked') {
    const details = [
      a.revokedAt && t('certificate.revokedAtDetail', { revokedAt: format(a.revokedAt) }),
      a.revocationReason &&
        t('certificate.reasonDetail', {
          reason: t(`revocationReasons.${a.revocationReason}`, { defaultValue: a.revocationReason }),
        }),
    ].filter(Boolean);
    message =
      details.length > 0
        ? t('certificate.revokedWithDetails', { details: details.join(t('certificate.detailSeparator')) })
        : t('certificate.revoked');
  } else if (a.invalidReason === 'not-yet-valid') {
    message = a.notBefore
      ? t('certificate.notYetValid', { notBefore: format(a.notBefore) })
      : t('certificate.notYetValidUndated');
  } else {
    message = t('certificate.invalid');
  }
  return (
    <p role="alert" className="form-error" data-invalid-reason={a.invalidReason ?? ''}>
      {message}
    </p>
  );
}
