import { useTranslation } from 'react-i18next';
import type { OrganizationDocument } from '../api/get-organization.ts';
import { useCurrentUsage } from '../api/current-usage.ts';
import { type PlanCatalog, usePlans } from '../api/list-plans.ts';
import { PlanChangeForm } from './plan-change-form.tsx';

type Attributes = OrganizationDocument['data']['attributes'];

/** Yen with thousands separators, as invoices show it. */
export const yen = (amount: number, locale: string) =>
  new Intl.NumberFormat(locale === 'ja' ? 'ja-JP' : 'en-US', { style: 'currency', currency: 'JPY' }).format(amount);

/**
 * The plan and paid options with the plan's limits and this month's usage against them; the owner asks the
 * operator for a change here (plans are billed, so a change is a request).
 */
export function PlanPanel({
  document,
  isAdmin,
  onReload,
}: {
  document: OrganizationDocument;
  isAdmin: boolean;
  onReload: () => void;
}) {
  const { t, i18n } = useTranslation(['organization', 'errors']);
  const a = document.data.attributes;
  const plans = usePlans();
  const isOwner = a.owner?.isCaller ?? false;
  const catalog = plans.data;
  const current = catalog?.data.find((p) => p.id === a.plan);
  const locale = i18n.language;

  return (
    <section aria-labelledby="plan-title" className="org-plan">
      <h2 id="plan-title">{t('plan.title')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('plan.current')}</dt>
          <dd>
            <span className={`plan plan-${a.plan}`}>{t(`plan.names.${a.plan}`)}</span>
            {current && t('plan.monthlyFee', { fee: yen(current.attributes.monthlyFee, locale) })}
          </dd>
        </div>
        <div>
          <dt>{t('plan.options')}</dt>
          <dd>
            {a.options.length
              ? a.options.map((o) => t(`plan.optionNames.${o}`)).join(t('plan.separator'))
              : t('plan.none')}
          </dd>
        </div>
        <div>
          <dt>{t('plan.groups')}</dt>
          <dd>{t('plan.groupsOf', { count: a.groupCount, max: current?.attributes.limits.groups ?? '—' })}</dd>
        </div>
      </dl>
      {isAdmin && catalog && <UsageAgainstPlan attributes={a} catalog={catalog} />}
      {catalog && <PlanComparison catalog={catalog} currentPlan={a.plan} />}
      {isOwner ? (
        catalog && <PlanChangeForm attributes={a} catalog={catalog} onReload={onReload} />
      ) : (
        <p className="muted">{t('plan.ownerOnly')}</p>
      )}
    </section>
  );
}

/** This month's counts next to what the plan's fee includes (and the AI-OCR allowance). */
function UsageAgainstPlan({ attributes, catalog }: { attributes: Attributes; catalog: PlanCatalog }) {
  const { t } = useTranslation('organization');
  const usage = useCurrentUsage(true);
  const plan = catalog.data.find((p) => p.id === attributes.plan)?.attributes;
  const month = usage.data;
  if (!plan || !month) return null;
  const ocr = catalog.meta.options.find((o) => o.option === 'aiOcr');
  const included = (n: number) => (n > 0 ? t('plan.included', { count: n }) : '');
  const rows: [string, number, string][] = [
    ['documents', month.documents, included(plan.metered.documents.included)],
    ['signatures', month.signatures, ''],
    ['timestamps', month.timestamps, included(plan.metered.timestamps.included)],
    ['oneTimeUsers', month.oneTimeUsers, included(plan.metered.oneTimeUsers.included)],
  ];
  if (attributes.options.includes('aiOcr') && ocr) {
    rows.push(['ocrPages', month.ocrPages, t('plan.allowance', { count: ocr.monthlyAllowance[attributes.plan] })]);
  }
  return (
    <div className="plan-usage">
      <h3>{t('plan.usageTitle', { month: month.month })}</h3>
      <div className="table-scroll">
        <table className="data-table">
          <tbody>
            {rows.map(([metric, count, note]) => (
              <tr key={metric}>
                <th scope="row">{t(`plan.metrics.${metric}`)}</th>
                <td className="cell-number">{count.toLocaleString()}</td>
                <td className="muted cell-wrap">{note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Every plan side by side: fee, groups, document price and what it adds. */
function PlanComparison({ catalog, currentPlan }: { catalog: PlanCatalog; currentPlan: Attributes['plan'] }) {
  const { t, i18n } = useTranslation('organization');
  return (
    <div className="plan-comparison">
      <h3>{t('plan.comparison', { tax: catalog.meta.consumptionTaxPercent })}</h3>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('plan.plan')}</th>
              <th scope="col">{t('plan.fee')}</th>
              <th scope="col">{t('plan.documentPrice')}</th>
              <th scope="col">{t('plan.groups')}</th>
              <th scope="col">{t('plan.features')}</th>
            </tr>
          </thead>
          <tbody>
            {catalog.data.map((plan) => (
              <tr key={plan.id} aria-current={plan.id === currentPlan ? 'true' : undefined}>
                <th scope="row">{t(`plan.names.${plan.id}`)}</th>
                <td className="cell-number">{yen(plan.attributes.monthlyFee, i18n.language)}</td>
                <td className="cell-number">{yen(plan.attributes.metered.documents.unitPrice, i18n.language)}</td>
                <td className="cell-number">{plan.attributes.limits.groups.toLocaleString()}</td>
                <td>
                  {plan.attributes.features.map((f) => t(`plan.featureNames.${f}`)).join(t('plan.separator')) || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
