import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { CheckboxField } from '../../../components/form-field.tsx';
import type { OrganizationDocument } from '../api/get-organization.ts';
import type { PlanCatalog } from '../api/list-plans.ts';
import { usePlanChangeRequests, useRequestPlanChange, useWithdrawPlanChange } from '../api/plan-change-requests.ts';
import { yen } from './plan-panel.tsx';

type Attributes = OrganizationDocument['data']['attributes'];
type Plan = Attributes['plan'];
type PaidOption = Attributes['options'][number];

/** The owner's request for another plan or options, and the pending one (which the owner may withdraw). */
export function PlanChangeForm({
  attributes,
  catalog,
  onReload,
}: {
  attributes: Attributes;
  catalog: PlanCatalog;
  onReload: () => void;
}) {
  const { t, i18n } = useTranslation(['organization', 'errors']);
  const requests = usePlanChangeRequests(true);
  const send = useRequestPlanChange();
  const withdraw = useWithdrawPlanChange();
  const [plan, setPlan] = useState<Plan>(attributes.plan);
  const [options, setOptions] = useState<PaidOption[]>(attributes.options);
  const [comment, setComment] = useState('');
  const [sent, setSent] = useState(false);
  const pending = requests.data?.data.find((r) => r.attributes.status === 'pending');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(false);
    send.mutate(
      { plan, options, comment },
      {
        onSuccess: () => {
          setSent(true);
          setComment('');
        },
      },
    );
  };

  return (
    <>
      {pending && (
        <div className="notice" role="status">
          <p>
            {t('plan.pending', {
              plan: t(`plan.names.${pending.attributes.plan}`),
              options:
                pending.attributes.options.map((o) => t(`plan.optionNames.${o}`)).join(t('plan.separator')) ||
                t('plan.none'),
              date: new Date(pending.attributes.createdAt).toLocaleDateString(i18n.language),
            })}
          </p>
          <button
            type="button"
            className="button"
            disabled={withdraw.isPending}
            onClick={() => withdraw.mutate(pending.id)}
          >
            {t('plan.withdraw')}
          </button>
          <ApiErrorNotice error={withdraw.error} onReload={onReload} />
        </div>
      )}
      <form onSubmit={submit} noValidate className="org-form">
        <fieldset className="field">
          <legend>{t('plan.requestTitle')}</legend>
          {catalog.data.map((entry) => (
            <div className="checkbox" key={entry.id}>
              <input
                id={`plan-${entry.id}`}
                type="radio"
                name="plan"
                checked={plan === entry.id}
                onChange={() => setPlan(entry.id)}
              />
              <label htmlFor={`plan-${entry.id}`}>
                {t(`plan.names.${entry.id}`)}
                {t('plan.monthlyFee', { fee: yen(entry.attributes.monthlyFee, i18n.language) })}
              </label>
            </div>
          ))}
        </fieldset>
        {catalog.meta.options.map((option) => (
          <CheckboxField
            key={option.option}
            id={`option-${option.option}`}
            label={`${t(`plan.optionNames.${option.option}`)}${t('plan.monthlyFee', { fee: yen(option.monthlyFee, i18n.language) })}`}
            checked={options.includes(option.option)}
            onChange={(event) =>
              setOptions(
                event.target.checked ? [...options, option.option] : options.filter((o) => o !== option.option),
              )
            }
          />
        ))}
        <div className="field">
          <label htmlFor="plan-comment">{t('plan.comment')}</label>
          <textarea
            id="plan-comment"
            maxLength={1000}
            rows={3}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        </div>
        <p className="hint">{t('plan.billing')}</p>
        <ApiErrorNotice error={send.error} onReload={onReload} />
        {sent && (
          <p role="status" className="success">
            {t('plan.requested')}
          </p>
        )}
        <div className="org-actions">
          <button type="submit" className="button primary" disabled={send.isPending}>
            {t('plan.request')}
          </button>
        </div>
      </form>
    </>
  );
}
