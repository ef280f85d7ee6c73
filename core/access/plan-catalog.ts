import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Plan } from '../http/context.ts';

/** A price per unit (yen, tax excluded) beyond a monthly quantity the fee already includes. */
export interface MeteredPrice {
  unitPrice: number;
  included: number;
}

/** One plan: what it switches on, what it allows and what it costs (config/plans.json). */
export interface PlanDefinition {
  names: { ja: string; en: string };
  features: string[];
  limits: { groups: number; roles: number };
  /** The base fee of a month, yen, tax excluded. */
  monthlyFee: number;
  metered: {
    documents: MeteredPrice;
    timestamps: MeteredPrice;
    oneTimeUsers: MeteredPrice;
    /** Per signature type code (`party`, `advanced`, ...); `default` prices any type not named. */
    signatures: Record<string, MeteredPrice> & { default: MeteredPrice };
  };
}

/** A paid option any plan can add (AI-OCR): its own fee, metered prices and a monthly allowance per plan. */
export interface OptionDefinition {
  names: { ja: string; en: string };
  monthlyFee: number;
  metered: Record<string, MeteredPrice>;
  /** The most units a month (AI-OCR: pages read) the option allows on each plan. */
  monthlyAllowance: Record<Plan, number>;
}

/** Plans and paid options as data: the one place features, limits and prices live. */
export interface PlanCatalog {
  currency: 'JPY';
  /** The consumption tax rate applied to every fee (10 %), rounded once per invoice. */
  consumptionTaxPercent: number;
  plans: Record<Plan, PlanDefinition>;
  options: Record<string, OptionDefinition>;
}

const yen = { type: 'integer', minimum: 0, maximum: 100_000_000 };
const metered = {
  type: 'object',
  required: ['unitPrice', 'included'],
  additionalProperties: false,
  properties: { unitPrice: yen, included: { type: 'integer', minimum: 0 } },
};
const names = {
  type: 'object',
  required: ['ja', 'en'],
  additionalProperties: false,
  properties: { ja: { type: 'string', minLength: 1 }, en: { type: 'string', minLength: 1 } },
};
const plan = {
  type: 'object',
  required: ['names', 'features', 'limits', 'monthlyFee', 'metered'],
  additionalProperties: false,
  properties: {
    names,
    features: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    limits: {
      type: 'object',
      required: ['groups', 'roles'],
      additionalProperties: false,
      properties: { groups: { type: 'integer', minimum: 1 }, roles: { type: 'integer', minimum: 1 } },
    },
    monthlyFee: yen,
    metered: {
      type: 'object',
      required: ['documents', 'timestamps', 'oneTimeUsers', 'signatures'],
      additionalProperties: false,
      properties: {
        documents: metered,
        timestamps: metered,
        oneTimeUsers: metered,
        signatures: { type: 'object', required: ['default'], additionalProperties: metered },
      },
    },
  },
};
const SCHEMA = {
  type: 'object',
  required: ['currency', 'consumptionTaxPercent', 'plans', 'options'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    currency: { const: 'JPY' },
    consumptionTaxPercent: { type: 'integer', minimum: 0, maximum: 100 },
    plans: {
      type: 'object',
      required: ['free', 'standard', 'professional'],
      additionalProperties: false,
      properties: { free: plan, standard: plan, professional: plan },
    },
    options: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['names', 'monthlyFee', 'metered', 'monthlyAllowance'],
        additionalProperties: false,
        properties: {
          names,
          monthlyFee: yen,
          metered: { type: 'object', additionalProperties: metered },
          monthlyAllowance: {
            type: 'object',
            required: ['free', 'standard', 'professional'],
            additionalProperties: false,
            properties: {
              free: { type: 'integer', minimum: 0 },
              standard: { type: 'integer', minimum: 0 },
              professional: { type: 'integer', minimum: 0 },
            },
          },
        },
      },
    },
  },
};

/** The catalog shipped with the service; KEIYAKU_PLANS_FILE names an operator's own copy. */
export const DEFAULT_PLANS_FILE = new URL('../../config/plans.json', import.meta.url);

/**
 * Reads and checks a catalog: a file that breaks the schema, names an unknown feature or misses a paid option
 * stops the start with a message naming the file and the place.
 */
export function loadPlanCatalog(
  file: string | URL,
  known: { features: readonly string[]; options: readonly string[] },
): PlanCatalog {
  const where = file instanceof URL ? file.pathname : file;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`plans file ${where}: ${(error as Error).message}`, { cause: error });
  }
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(SCHEMA);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new Error(`plans file ${where}: ${problems}`);
  }
  const catalog = data as unknown as PlanCatalog;
  for (const [code, definition] of Object.entries(catalog.plans)) {
    const unknown = definition.features.filter((f) => !known.features.includes(f));
    if (unknown.length > 0) throw new Error(`plans file ${where}: plan ${code} names unknown features ${unknown}`);
  }
  const missing = known.options.filter((o) => !(o in catalog.options));
  const extra = Object.keys(catalog.options).filter((o) => !known.options.includes(o));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`plans file ${where}: options must be exactly ${known.options.join(', ')}`);
  }
  return catalog;
}
