import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { SignatureReport } from '../api/verify-signatures.ts';

export type Revocation = SignatureReport['revocation'];

/** Formats an ISO date-time in Japan time and the interface language; an unparsable value is shown as it is. */
export function useDateTime() {
  const { i18n } = useTranslation();
  const format = japanDateTimeFormat(i18n.language);
  return (value: string | null | undefined) => {
    if (!value) return '—';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : format.format(date);
  };
}

/**
 * The revocation status in one sentence: the status, then in brackets when and why it was revoked, or why it could
 * not be checked. A reason code without a name in the catalogue is shown as the code.
 */
export function useRevocationText() {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  return (revocation: Revocation) => {
    const details: string[] = [];
    if (revocation.status === 'revoked' || revocation.status === 'revoked-after-signing') {
      if (revocation.revokedAt) details.push(dateTime(revocation.revokedAt));
      if (revocation.reason) {
        const reason = t(`revocationReasons.${revocation.reason}`, { defaultValue: revocation.reason });
        details.push(t('report.revocationReason', { reason }));
      }
    } else if (revocation.status === 'unknown' && revocation.detail) {
      details.push(revocation.detail);
    }
    const status = t(`report.revocations.${revocation.status}`, { defaultValue: revocation.status });
    if (details.length === 0) return status;
    return `${status}${t('report.revocationDetails', { details: details.join(t('report.detailSeparator')) })}`;
  };
}
