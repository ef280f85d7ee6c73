/*
 * The statement arithmetic over random usage, plans and options (fast-check): the lines add up to the subtotal,
 * the tax is floor(subtotal × rate) once per statement, the total is subtotal + tax, every amount is a whole
 * number of yen ≥ 0, and nothing the plan includes is ever billed; a full credit note cancels its invoice exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPlanCatalog, DEFAULT_PLANS_FILE } from '../../core/access/plan-catalog.ts';
import { computeStatement, reversalOf, type PlanCatalog, type PlanCode } from './compute.ts';

const SIGNATURE_TYPES = [
  'party',
  'proxy',
  'advanced',
  'operator',
  'handwritten',
  'seal-image',
  'long-term',
  'timestamp',
];

/** The shipped catalog, and random catalogs of the same shape (prices and allowances anywhere in range). */
const shipped = loadPlanCatalog(DEFAULT_PLANS_FILE, {
  features: [
    'ipRestriction',
    'customProperties',
    'templates',
    'box',
    'apiKeys',
    'webhooks',
    'sso',
    'advancedSignature',
    'longTermSignature',
  ],
  options: ['aiOcr'],
});

const price = fc.record({
  unitPrice: fc.integer({ min: 0, max: 100_000 }),
  included: fc.integer({ min: 0, max: 5_000 }),
});
const plan = fc.record({
  monthlyFee: fc.integer({ min: 0, max: 1_000_000 }),
  documents: price,
  timestamps: price,
  oneTimeUsers: price,
  signatures: fc.dictionary(fc.constantFrom(...SIGNATURE_TYPES), price),
  signatureDefault: price,
});
const catalogArb = fc
  .record({
    tax: fc.integer({ min: 0, max: 25 }),
    free: plan,
    standard: plan,
    professional: plan,
    ocrFee: fc.integer({ min: 0, max: 100_000 }),
    ocrPages: price,
  })
  .map(({ tax, ocrFee, ocrPages, ...plans }): PlanCatalog => {
    const defOf = (code: PlanCode) => {
      const p = plans[code];
      return {
        ...shipped.plans[code],
        monthlyFee: p.monthlyFee,
        metered: {
          documents: p.documents,
          timestamps: p.timestamps,
          oneTimeUsers: p.oneTimeUsers,
          signatures: { ...p.signatures, default: p.signatureDefault },
        },
      };
    };
    return {
      ...shipped,
      consumptionTaxPercent: tax,
      plans: { free: defOf('free'), standard: defOf('standard'), professional: defOf('professional') },
      options: { aiOcr: { ...shipped.options.aiOcr!, monthlyFee: ocrFee, metered: { ocrPages } } },
    };
  });
const counters = fc.dictionary(
  fc.constantFrom(
    'documents',
    'signatures',
    'timestamps',
    'oneTimeUsers',
    'ocrPages',
    ...SIGNATURE_TYPES.map((t) => `signatures.${t}`),
  ),
  fc.integer({ min: 0, max: 1_000_000 }),
);
const planCode = fc.constantFrom<PlanCode>('free', 'standard', 'professional');
const options = fc.subarray(['aiOcr']);

describe('computeStatement over random usage', () => {
  it('adds lines up to the subtotal, taxes it once (floor), and never bills an included quantity', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(shipped), catalogArb),
        planCode,
        options,
        counters,
        (catalog, code, opts, usage) => {
          const s = computeStatement(catalog, code, opts, usage);
          const rate = catalog.consumptionTaxPercent;
          expect(s.lines.reduce((sum, l) => sum + l.amount, 0)).toBe(s.subtotal);
          expect(s.tax).toBe(Math.floor((s.subtotal * rate) / 100));
          expect(s.total).toBe(s.subtotal + s.tax);
          expect(s.taxTotals).toEqual([{ taxRatePercent: rate, subtotal: s.subtotal, tax: s.tax }]);
          for (const value of [s.subtotal, s.tax, s.total]) {
            expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
          }
          for (const l of s.lines) {
            expect(Number.isSafeInteger(l.amount) && l.amount >= 0).toBe(true);
            expect(l.billableQuantity).toBe(Math.max(0, l.quantity - l.included));
            expect(l.amount).toBe(l.billableQuantity * l.unitPrice);
            expect(l.taxRatePercent).toBe(rate);
          }
          // Usage within what the plan includes costs nothing beyond the fees.
          const fees = s.lines.filter((l) => l.item === 'baseFee' || l.item.startsWith('option.'));
          const within = Object.fromEntries(
            s.lines.filter((l) => !fees.includes(l)).map((l) => [l.item.replace(/^aiOcr\./, ''), l.included]),
          );
          const free = computeStatement(catalog, code, opts, within);
          expect(free.subtotal).toBe(fees.reduce((sum, l) => sum + l.amount, 0));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('shares the default included quantity once among the unpriced signature types (a default with included > 0)', () => {
    const withPooledDefault = catalogArb.map((catalog) => {
      const plans = { ...catalog.plans };
      for (const code of Object.keys(plans) as PlanCode[]) {
        const def = plans[code].metered.signatures.default;
        plans[code] = {
          ...plans[code],
          metered: {
            ...plans[code].metered,
            signatures: { default: { unitPrice: def.unitPrice, included: Math.max(1, def.included) } },
          },
        };
      }
      return { ...catalog, plans };
    });
    fc.assert(
      fc.property(withPooledDefault, planCode, counters, (catalog, code, usage) => {
        const s = computeStatement(catalog, code, [], usage);
        const fallback = catalog.plans[code].metered.signatures.default;
        const unpriced = s.lines.filter((l) => l.item.startsWith('signatures.'));
        const used = unpriced.reduce((sum, l) => sum + l.quantity, 0);
        // Billed as if all unpriced types were one line with the default's allowance once.
        expect(unpriced.reduce((sum, l) => sum + l.billableQuantity, 0)).toBe(Math.max(0, used - fallback.included));
        expect(unpriced.reduce((sum, l) => sum + l.included, 0)).toBe(Math.min(used, fallback.included));
      }),
      { numRuns: 300 },
    );
    const shippedLike = {
      ...shipped,
      plans: {
        ...shipped.plans,
        standard: {
          ...shipped.plans.standard,
          metered: { ...shipped.plans.standard.metered, signatures: { default: { unitPrice: 100, included: 10 } } },
        },
      },
    };
    const s = computeStatement(shippedLike, 'standard', [], { 'signatures.party': 6, 'signatures.proxy': 6 });
    // 12 signatures, 10 included once: 2 billed (not 0, as with 10 included per type).
    expect(s.lines.filter((l) => l.item.startsWith('signatures.')).map((l) => l.amount)).toEqual([0, 200]);
  });

  it('charges each signature type at its own price, else the plan default, and OCR pages only with the option', () => {
    const s = computeStatement(shipped, 'professional', [], {
      'signatures.advanced': 2,
      'signatures.operator': 5,
      ocrPages: 100,
    });
    const byItem = Object.fromEntries(s.lines.map((l) => [l.item, l]));
    expect(byItem['signatures.advanced']!.amount).toBe(600);
    expect(byItem['signatures.operator']!.amount).toBe(0);
    expect(byItem['aiOcr.ocrPages']).toBeUndefined();
    const withOcr = computeStatement(shipped, 'professional', ['aiOcr'], { ocrPages: 100 });
    expect(withOcr.lines.map((l) => [l.item, l.amount])).toContainEqual(['option.aiOcr', 3000]);
    expect(withOcr.lines.map((l) => [l.item, l.amount])).toContainEqual(['aiOcr.ocrPages', 1000]);
    // 30,000 + 3,000 + 1,000 = 34,000; tax 3,400.
    expect([withOcr.subtotal, withOcr.tax, withOcr.total]).toEqual([34_000, 3_400, 37_400]);
  });

  it('a full credit note negates every amount and the tax, so the two cancel exactly', () => {
    fc.assert(
      fc.property(catalogArb, planCode, options, counters, (catalog, code, opts, usage) => {
        const invoice = computeStatement(catalog, code, opts, usage);
        const credit = reversalOf(invoice);
        expect(credit.subtotal + invoice.subtotal).toBe(0);
        expect(credit.tax + invoice.tax).toBe(0);
        expect(credit.total + invoice.total).toBe(0);
        for (const l of credit.lines) expect(l.amount <= 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
