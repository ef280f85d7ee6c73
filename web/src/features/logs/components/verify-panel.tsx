import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import type { LogKind } from '../api/download-log.ts';
import { type ChainVerdict, useVerifyChain } from '../api/verify-chain.ts';

/** Buttons that re-compute the organization's hash chains on the server and show the verdict. */
export function VerifyPanel() {
  const { t } = useTranslation('logs');
  const verifying = useVerifyChain();
  const [result, setResult] = useState<{ kind: LogKind; verdict: ChainVerdict } | null>(null);

  const verdictText = ({ kind, verdict }: { kind: LogKind; verdict: ChainVerdict }) => {
    const what = t(`verify.names.${kind}`);
    if (verdict.valid || !verdict.firstBadRow) return t('verify.valid', { what, count: verdict.checked });
    return t('verify.invalid', {
      what,
      id: verdict.firstBadRow.id,
      reason: t(`verify.reasons.${verdict.firstBadRow.reason}`),
      count: verdict.checked,
    });
  };

  return (
    <section aria-labelledby="logs-verify-title" className="logs-panel">
      <h2 id="logs-verify-title">{t('verify.title')}</h2>
      <p className="muted">{t('verify.intro')}</p>
      <div className="logs-actions">
        {(['operationLogs', 'signRecords'] as const).map((kind) => (
          <button
            key={kind}
            type="button"
            className="button"
            disabled={verifying.isPending}
            onClick={() => {
              setResult(null);
              verifying.mutate(kind, { onSuccess: (verdict) => setResult({ kind, verdict }) });
            }}
          >
            {verifying.isPending && verifying.variables === kind ? t('verify.checking') : t(`verify.${kind}`)}
          </button>
        ))}
      </div>
      <ApiErrorNotice error={verifying.error} />
      <p role="status" className={result && !result.verdict.valid ? 'logs-verdict logs-verdict-bad' : 'logs-verdict'}>
        {result ? verdictText(result) : ''}
      </p>
    </section>
  );
}
