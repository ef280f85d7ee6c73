import { isValidCorporateNumber, PluginError } from '../../core/plugins/index.ts';

/** The issuer of the statements (the business operator) and how often the closing job looks for ended months. */
export interface BillingConfig {
  issuerName: string;
  /** Registration number for qualified invoices: `T` + a 13-digit corporate number (check digit verified). */
  registrationNumber: string;
  issuerAddress: string;
  /** Free text printed under the totals (bank account, payment method); null prints nothing. */
  paymentText: string | null;
  /** The due date is the issue date plus this many days. */
  paymentDueDays: number;
  closeCheckMinutes: number;
  /** The service operator's token (KEIYAKU_OPERATOR_TOKEN) that authenticates the credit note route. */
  operatorToken: string | null;
}

/**
 * The embedded default's issuer: clearly an example (and the start logs a warning while it is used); an operator
 * sets KEIYAKU_PLUGIN_BILLING_ISSUER_NAME, _REGISTRATION_NUMBER and _ISSUER_ADDRESS.
 */
export const EXAMPLE_ISSUER = {
  issuerName: 'Keiyaku 運営株式会社（設定例）',
  registrationNumber: 'T7123456789012',
  issuerAddress: '東京都千代田区千代田1-1（設定例）',
};

/**
 * True when the issuer was set explicitly: none of name, registration number and address is the example's. With the
 * example issuer nothing is ever closed (no numbered, signed invoice names it); the preview still works.
 */
export function issuerConfigured(config: Pick<BillingConfig, 'issuerName' | 'registrationNumber' | 'issuerAddress'>) {
  return (
    config.issuerName !== EXAMPLE_ISSUER.issuerName &&
    config.registrationNumber !== EXAMPLE_ISSUER.registrationNumber &&
    config.issuerAddress !== EXAMPLE_ISSUER.issuerAddress
  );
}

/** Why a registration number is not a qualified-invoice T number, or null when it is one. */
export function registrationNumberProblem(value: string): string | null {
  if (!/^T[0-9]{13}$/.test(value)) return 'must be T followed by 13 digits';
  if (!isValidCorporateNumber(value.slice(1))) return 'has a wrong check digit (its 13 digits are no corporate number)';
  return null;
}

export const CONFIG_SCHEMA = {
  type: 'object',
  required: ['issuerName', 'registrationNumber', 'issuerAddress'],
  properties: {
    issuerName: { type: 'string', minLength: 1, maxLength: 200, default: EXAMPLE_ISSUER.issuerName },
    registrationNumber: {
      type: 'string',
      pattern: '^T[0-9]{13}$',
      default: EXAMPLE_ISSUER.registrationNumber,
    },
    issuerAddress: { type: 'string', minLength: 1, maxLength: 300, default: EXAMPLE_ISSUER.issuerAddress },
    paymentText: { type: ['string', 'null'], maxLength: 500, default: null },
    paymentDueDays: { type: 'integer', minimum: 0, maximum: 365, default: 30 },
    closeCheckMinutes: { type: 'integer', minimum: 1, maximum: 1440, default: 60 },
    operatorToken: { type: ['string', 'null'], default: null },
  },
};

/** Builds the config from KEIYAKU_PLUGIN_BILLING_*; a T number with a wrong check digit stops the start. */
export function readConfig(
  operatorToken: string | null,
  slice: Record<string, string>,
): Partial<Record<keyof BillingConfig, unknown>> {
  const registrationNumber = slice.REGISTRATION_NUMBER?.trim() || undefined;
  if (registrationNumber) {
    const problem = registrationNumberProblem(registrationNumber);
    if (problem) {
      throw new PluginError(
        `plugin billing: invalid configuration: KEIYAKU_PLUGIN_BILLING_REGISTRATION_NUMBER ${problem} (${registrationNumber})`,
      );
    }
  }
  return {
    issuerName: slice.ISSUER_NAME?.trim() || undefined,
    registrationNumber,
    issuerAddress: slice.ISSUER_ADDRESS?.trim() || undefined,
    paymentText: slice.PAYMENT_TEXT?.trim() || undefined,
    paymentDueDays: slice.PAYMENT_DUE_DAYS,
    closeCheckMinutes: slice.CLOSE_CHECK_MINUTES,
    operatorToken,
  };
}
