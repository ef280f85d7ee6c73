/*
 * The figures of a monthly statement, from the plan catalog, the plan and paid options of the month and the
 * month's usage counters: pure, so a property test can throw random usage at it. Every item is a 10 % (the
 * catalog's consumptionTaxPercent) item; the consumption tax is computed once per statement and rate on the
 * subtotal and rounded down (floor), as a qualified invoice may round once per invoice and rate.
 */
import type { PluginContext } from '../../core/plugins/index.ts';

export type PlanCatalog = PluginContext['plans'];
export type PlanCode = keyof PlanCatalog['plans'];

/** One item of a statement (the contract's BillingLine). */
export interface StatementLine {
  item: string;
  quantity: number;
  included: number;
  billableQuantity: number;
  unitPrice: number;
  amount: number;
  taxRatePercent: number;
}

export interface TaxTotal {
  taxRatePercent: number;
  subtotal: number;
  tax: number;
}

/** Lines and totals: what a statement charges. */
export interface StatementFigures {
  lines: StatementLine[];
  taxTotals: TaxTotal[];
  subtotal: number;
  tax: number;
  total: number;
}

interface Price {
  unitPrice: number;
  included: number;
}

function line(item: string, quantity: number, price: Price, taxRatePercent: number): StatementLine {
  const count = Math.max(0, Math.floor(quantity));
  const billableQuantity = Math.max(0, count - price.included);
  return {
    item,
    quantity: count,
    included: price.included,
    billableQuantity,
    unitPrice: price.unitPrice,
    amount: billableQuantity * price.unitPrice,
    taxRatePercent,
  };
}

/** Sums lines per tax rate, each rate's tax rounded down once, and the statement's totals. */
export function totalsOf(lines: StatementLine[]): StatementFigures {
  const rates = [...new Set(lines.map((l) => l.taxRatePercent))].sort((a, b) => b - a);
  const taxTotals = rates.map((taxRatePercent) => {
    const subtotal = lines.filter((l) => l.taxRatePercent === taxRatePercent).reduce((sum, l) => sum + l.amount, 0);
    // Integers only: floor(subtotal × rate / 100), away from zero never (a credit note's negative tax is the
    // negated tax of its positive amount, so an invoice and its full credit note cancel exactly).
    const tax = Math.sign(subtotal) * Math.floor((Math.abs(subtotal) * taxRatePercent) / 100);
    return { taxRatePercent, subtotal, tax };
  });
  const subtotal = taxTotals.reduce((sum, t) => sum + t.subtotal, 0);
  const tax = taxTotals.reduce((sum, t) => sum + t.tax, 0);
  return { lines, taxTotals, subtotal, tax, total: subtotal + tax };
}

/**
 * A month's statement: the plan's base fee, documents, signatures per type (types without a price of their own
 * take the plan's `default` price and share its included quantity once, as one pool), timestamps and one-time users beyond what the plan includes, then each paid option's
 * fee and its metered units (AI-OCR pages). Metrics of an option the organization does not have are not charged.
 */
export function computeStatement(
  catalog: PlanCatalog,
  plan: PlanCode,
  options: readonly string[],
  counters: Readonly<Record<string, number>>,
): StatementFigures {
  const definition = catalog.plans[plan];
  const rate = catalog.consumptionTaxPercent;
  const count = (metric: string) => counters[metric] ?? 0;
  const lines: StatementLine[] = [
    line('baseFee', 1, { unitPrice: definition.monthlyFee, included: 0 }, rate),
    line('documents', count('documents'), definition.metered.documents, rate),
  ];
  const signatureTypes = Object.keys(counters)
    .filter((metric) => metric.startsWith('signatures.'))
    .map((metric) => metric.slice('signatures.'.length))
    .sort();
  // Types without a price of their own share the default's included quantity once (a pool, used in type order):
  // each such line shows as `included` the part of the pool it used, so the pool is never granted twice.
  const fallback = definition.metered.signatures.default;
  let pool = fallback.included;
  for (const type of signatureTypes) {
    const own = definition.metered.signatures[type];
    const quantity = count(`signatures.${type}`);
    if (own && type !== 'default') {
      lines.push(line(`signatures.${type}`, quantity, own, rate));
      continue;
    }
    const used = Math.min(pool, Math.max(0, Math.floor(quantity)));
    pool -= used;
    lines.push(line(`signatures.${type}`, quantity, { unitPrice: fallback.unitPrice, included: used }, rate));
  }
  lines.push(line('timestamps', count('timestamps'), definition.metered.timestamps, rate));
  lines.push(line('oneTimeUsers', count('oneTimeUsers'), definition.metered.oneTimeUsers, rate));
  for (const option of [...new Set(options)].sort()) {
    const optionDefinition = catalog.options[option];
    if (!optionDefinition) continue;
    lines.push(line(`option.${option}`, 1, { unitPrice: optionDefinition.monthlyFee, included: 0 }, rate));
    for (const [metric, price] of Object.entries(optionDefinition.metered).sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(line(`${option}.${metric}`, count(metric), price, rate));
    }
  }
  return totalsOf(lines);
}

/** The figures of a credit note reversing `original` in full: every line's amount negated, tax per rate too. */
export function reversalOf(original: StatementFigures): StatementFigures {
  const negative = (value: number) => (value === 0 ? 0 : -value);
  const lines = original.lines.map((l) => ({ ...l, amount: negative(l.amount) }));
  return totalsOf(lines);
}

/** A credit note of one adjustment line of `amount` yen (tax excluded, given positive) at the catalog's rate. */
export function adjustmentOf(amount: number, taxRatePercent: number): StatementFigures {
  return totalsOf([
    {
      item: 'adjustment',
      quantity: 1,
      included: 0,
      billableQuantity: 1,
      unitPrice: amount,
      amount: -amount,
      taxRatePercent,
    },
  ]);
}
