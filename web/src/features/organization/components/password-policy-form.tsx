import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import type { PasswordPolicy } from '../api/get-password-policy.ts';
import { useUpdatePasswordPolicy } from '../api/update-password-policy.ts';
import { fieldErrorsOf } from './page-state.tsx';

type Flag = 'requireLowercase' | 'requireUppercase' | 'requireDigit' | 'requireSymbol' | 'forbidUserId';
const FLAGS: Flag[] = ['requireLowercase', 'requireUppercase', 'requireDigit', 'requireSymbol', 'forbidUserId'];
/** Rules of the service baseline: shown switched on and locked. */
const BASELINE: ReadonlySet<Flag> = new Set(['requireLowercase', 'requireDigit', 'forbidUserId']);
const RANGES = { minLength: [8, 64], expiryDays: [1, 999], reuseCount: [0, 24] } as const;

function wholeIn(text: string, [min, max]: readonly [number, number]): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

/** The policy's fields; numbers are checked here first, then the server's field errors show beside each field. */
export function PasswordPolicyForm({ policy, onReload }: { policy: PasswordPolicy; onReload: () => void }) {
  const { t } = useTranslation(['organization', 'errors']);
  const update = useUpdatePasswordPolicy();
  const a = policy.attributes;
  const [minLength, setMinLength] = useState(String(a.minLength));
  const [flags, setFlags] = useState<Record<Flag, boolean>>(
    () => Object.fromEntries(FLAGS.map((flag) => [flag, a[flag]])) as Record<Flag, boolean>,
  );
  const [expires, setExpires] = useState(a.expiryDays !== null);
  const [expiryDays, setExpiryDays] = useState(String(a.expiryDays ?? 90));
  const [reuseCount, setReuseCount] = useState(String(a.reuseCount));
  const [local, setLocal] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);

  const server = fieldErrorsOf(update.error);
  const errorsOf = (name: string) => [
    ...(local[name] ? [local[name]!] : []),
    ...(server[name] ?? []).map((code) => t(`errors:${code}`)),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const values = {
      minLength: wholeIn(minLength, RANGES.minLength),
      expiryDays: expires ? wholeIn(expiryDays, RANGES.expiryDays) : null,
      reuseCount: wholeIn(reuseCount, RANGES.reuseCount),
    };
    const problems: Record<string, string> = {};
    for (const name of ['minLength', 'reuseCount'] as const) {
      if (values[name] === null)
        problems[name] = t('policy.invalidNumber', { min: RANGES[name][0], max: RANGES[name][1] });
    }
    if (expires && values.expiryDays === null) {
      problems.expiryDays = t('policy.invalidNumber', { min: RANGES.expiryDays[0], max: RANGES.expiryDays[1] });
    }
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    update.mutate(
      {
        ...flags,
        minLength: values.minLength!,
        expiryDays: values.expiryDays,
        reuseCount: values.reuseCount!,
        lockVersion: a.lockVersion,
      },
      { onSuccess: () => setSaved(true) },
    );
  };

  const showNotice = update.error && Object.keys(server).length === 0;
  return (
    <form onSubmit={submit} noValidate className="org-form">
      <FormField
        id="policy-min-length"
        label={t('policy.minLength')}
        hint={t('policy.minLengthHint')}
        type="number"
        min={8}
        max={64}
        value={minLength}
        errors={errorsOf('minLength')}
        onChange={(event) => setMinLength(event.target.value)}
      />
      {FLAGS.map((flag) => (
        <CheckboxField
          key={flag}
          id={`policy-${flag}`}
          label={t(`policy.${flag}`)}
          hint={BASELINE.has(flag) ? t('policy.baseline') : undefined}
          checked={flags[flag]}
          disabled={BASELINE.has(flag)}
          errors={errorsOf(flag)}
          onChange={(event) => setFlags({ ...flags, [flag]: event.target.checked })}
        />
      ))}
      <fieldset className="field">
        <legend>{t('policy.expiry')}</legend>
        <div className="checkbox">
          <input
            id="policy-expiry-never"
            type="radio"
            name="expiry"
            checked={!expires}
            onChange={() => setExpires(false)}
          />
          <label htmlFor="policy-expiry-never">{t('policy.expiryNever')}</label>
        </div>
        <div className="checkbox">
          <input
            id="policy-expiry-days-on"
            type="radio"
            name="expiry"
            checked={expires}
            onChange={() => setExpires(true)}
          />
          <label htmlFor="policy-expiry-days-on">{t('policy.expiryDays')}</label>
        </div>
        {expires && (
          <FormField
            id="policy-expiry-days"
            label={t('policy.expiryDaysLabel')}
            hint={t('policy.expiryHint')}
            type="number"
            min={1}
            max={999}
            value={expiryDays}
            errors={errorsOf('expiryDays')}
            onChange={(event) => setExpiryDays(event.target.value)}
          />
        )}
      </fieldset>
      <FormField
        id="policy-reuse-count"
        label={t('policy.reuseCount')}
        hint={t('policy.reuseHint')}
        type="number"
        min={0}
        max={24}
        value={reuseCount}
        errors={errorsOf('reuseCount')}
        onChange={(event) => setReuseCount(event.target.value)}
      />
      {showNotice && <ApiErrorNotice error={update.error} onReload={onReload} />}
      {saved && (
        <p role="status" className="success">
          {t('saved')}
        </p>
      )}
      <div className="org-actions">
        <button type="submit" className="button primary" disabled={update.isPending}>
          {update.isPending ? t('saving') : t('save')}
        </button>
      </div>
    </form>
  );
}
