import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { type OcrSettings, useOcrSettings, useUpdateOcrSettings } from '../api/ocr-settings.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../ai-ocr.css';

registerCatalogue('aiOcr', { ja, en });

/** The threshold the contract takes, as whole percent. */
const MIN_PERCENT = 50;
const MAX_PERCENT = 100;

function Usage({ settings }: { settings: OcrSettings }) {
  const { t } = useTranslation('aiOcr');
  const [year, month] = settings.month.split('-').map(Number);
  return (
    <section aria-labelledby="ocr-usage-title" className="panel">
      <h2 id="ocr-usage-title">{t('settings.usageTitle', { year, month })}</h2>
      <p data-testid="ocr-pages-used">
        {t('settings.usage', { used: settings.pagesUsed, allowance: settings.monthlyPageAllowance })}
      </p>
      <meter
        className="ocr-meter"
        min={0}
        max={Math.max(1, settings.monthlyPageAllowance)}
        high={Math.max(1, settings.monthlyPageAllowance) * 0.9}
        value={settings.pagesUsed}
        aria-label={t('settings.usageLabel')}
      />
      <p className="hint">{t('settings.usageHint')}</p>
    </section>
  );
}

function AutoAcceptForm({ settings, isAdmin }: { settings: OcrSettings; isAdmin: boolean }) {
  const { t } = useTranslation('aiOcr');
  const update = useUpdateOcrSettings();
  const current = settings.autoAcceptConfidence;
  const [enabled, setEnabled] = useState(current !== null);
  const [percent, setPercent] = useState(String(Math.round((current ?? 0.9) * 100)));
  const value = Number(percent);
  const valid = /^\d+$/.test(percent.trim()) && value >= MIN_PERCENT && value <= MAX_PERCENT;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (enabled && !valid) return;
    update.mutate(enabled ? value / 100 : null, { onSuccess: () => toast.success(t('settings.saved')) });
  };
  if (!isAdmin) {
    return (
      <section aria-labelledby="ocr-auto-title" className="panel">
        <h2 id="ocr-auto-title">{t('settings.autoTitle')}</h2>
        <p data-testid="ocr-auto-accept">
          {current === null ? t('settings.autoOff') : t('settings.autoOn', { percent: Math.round(current * 100) })}
        </p>
        <p className="hint">{t('settings.adminOnly')}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="ocr-auto-title" className="panel">
      <h2 id="ocr-auto-title">{t('settings.autoTitle')}</h2>
      <form onSubmit={submit} noValidate className="admin-form">
        <p className="hint">{t('settings.autoHint')}</p>
        <div className="checkbox">
          <input
            id="ocr-auto-enable"
            type="checkbox"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <label htmlFor="ocr-auto-enable">{t('settings.autoEnable')}</label>
        </div>
        <div className="field ocr-threshold">
          <label htmlFor="ocr-threshold">{t('settings.threshold')}</label>
          <p id="ocr-threshold-hint" className="hint">
            {t('settings.thresholdHint', { min: MIN_PERCENT, max: MAX_PERCENT })}
          </p>
          <span className="ocr-percent">
            <input
              id="ocr-threshold"
              type="number"
              inputMode="numeric"
              min={MIN_PERCENT}
              max={MAX_PERCENT}
              step={1}
              disabled={!enabled}
              value={percent}
              aria-invalid={enabled && !valid ? true : undefined}
              aria-describedby={enabled && !valid ? 'ocr-threshold-hint ocr-threshold-error' : 'ocr-threshold-hint'}
              onChange={(e) => setPercent(e.target.value)}
            />
            <span aria-hidden="true">%</span>
          </span>
          {enabled && !valid && (
            <div id="ocr-threshold-error" className="field-error">
              <p>{t('settings.thresholdInvalid', { min: MIN_PERCENT, max: MAX_PERCENT })}</p>
            </div>
          )}
        </div>
        <ApiErrorNotice error={update.error} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={update.isPending}>
            {update.isPending ? t('settings.saving') : t('settings.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * 組織管理 → AI-OCR (every member, organizations with the aiOcr feature): this month's pages against the plan's
 * allowance, and the confidence from which proposals are confirmed without a person (administrators change it).
 */
export function OcrSettingsPage() {
  const { t } = useTranslation('aiOcr');
  const isAdmin = Boolean(useCurrentUser().data?.attributes.isAdmin);
  const settings = useOcrSettings();
  useEffect(() => {
    document.title = t('settings.title');
  }, [t]);
  if (settings.error instanceof ApiError && settings.error.code === 'IP_RESTRICTED') throw settings.error;
  return (
    <section aria-labelledby="ocr-settings-title" className="org-settings ocr-settings">
      <h1 id="ocr-settings-title">{t('settings.title')}</h1>
      <p>{t('settings.intro')}</p>
      {settings.isPending && (
        <p role="status" className="muted">
          {t('settings.loading')}
        </p>
      )}
      <ApiErrorNotice error={settings.error} />
      {settings.data && (
        <>
          <Usage settings={settings.data} />
          <AutoAcceptForm key={String(settings.data.autoAcceptConfidence)} settings={settings.data} isAdmin={isAdmin} />
        </>
      )}
    </section>
  );
}
