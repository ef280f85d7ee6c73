import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { CheckboxField } from '../../../components/form-field.tsx';
import { useChangeOrganizationPlan } from '../api/change-organization-plan.ts';
import type { OrganizationDocument } from '../api/get-organization.ts';

type Plan = OrganizationDocument['data']['attributes']['plan'];
type PaidOption = OrganizationDocument['data']['attributes']['options'][number];

/** The plan, paid options and group usage; the owner changes plan and options here (self-service). */
export function PlanPanel({ document, onReload }: { document: OrganizationDocument; onReload: () => void }) {
  const { t } = useTranslation(['organization', 'errors']);
  const a = document.data.attributes;
  const change = useChangeOrganizationPlan();
  const [plan, setPlan] = useState<Plan>(a.plan);
  const [options, setOptions] = useState<PaidOption[]>(a.options);
  const [saved, setSaved] = useState(false);
  const isOwner = a.owner?.isCaller ?? false;
  const maxGroups = document.meta.plans.find((p) => p.plan === a.plan)?.maxGroups ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    change.mutate({ plan, options, lockVersion: a.lockVersion }, { onSuccess: () => setSaved(true) });
  };

  return (
    <section aria-labelledby="plan-title" className="org-plan">
      <h2 id="plan-title">{t('plan.title')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('plan.current')}</dt>
          <dd>
            <span className={`plan plan-${a.plan}`}>{t(`plan.names.${a.plan}`)}</span>
          </dd>
        </div>
        <div>
          <dt>{t('plan.options')}</dt>
          <dd>{a.options.length ? a.options.map((o) => t(`plan.optionNames.${o}`)).join(', ') : t('plan.none')}</dd>
        </div>
        <div>
          <dt>{t('plan.groups')}</dt>
          <dd>
            {maxGroups === null
              ? t('plan.groupsUnlimited', { count: a.groupCount })
              : t('plan.groupsOf', { count: a.groupCount, max: maxGroups })}
          </dd>
        </div>
      </dl>
      {!isOwner ? (
        <p className="muted">{t('plan.ownerOnly')}</p>
      ) : (
        <form onSubmit={submit} noValidate className="org-form">
          <fieldset className="field">
            <legend>{t('plan.change')}</legend>
            {document.meta.plans.map((entry) => (
              <div className="checkbox" key={entry.plan}>
                <input
                  id={`plan-${entry.plan}`}
                  type="radio"
                  name="plan"
                  checked={plan === entry.plan}
                  onChange={() => setPlan(entry.plan)}
                />
                <label htmlFor={`plan-${entry.plan}`}>{t(`plan.names.${entry.plan}`)}</label>
              </div>
            ))}
          </fieldset>
          {document.meta.options.map((option) => (
            <CheckboxField
              key={option}
              id={`option-${option}`}
              label={t(`plan.optionNames.${option}`)}
              checked={options.includes(option)}
              onChange={(event) =>
                setOptions(event.target.checked ? [...options, option] : options.filter((o) => o !== option))
              }
            />
          ))}
          <p className="hint">{t('plan.billing')}</p>
          <ApiErrorNotice error={change.error} onReload={onReload} />
          {saved && (
            <p role="status" className="success">
              {t('plan.changed')}
            </p>
          )}
          <div className="org-actions">
            <button type="submit" className="button primary" disabled={change.isPending}>
              {t('plan.change')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
