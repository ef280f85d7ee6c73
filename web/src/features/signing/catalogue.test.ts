import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import openapiSource from '../../../../openapi.yaml?raw';
import en from '../../i18n/en/signing.json';
import ja from '../../i18n/ja/signing.json';
import documentsEn from '../documents/i18n/en.json';
import documentsJa from '../documents/i18n/ja.json';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

interface Schema {
  enum?: (string | number | null)[];
  description?: string;
  properties?: Record<string, Schema>;
}
const schemas = (parse(openapiSource) as { components: { schemas: Record<string, Schema> } }).components.schemas;
const enumOf = (name: string, property?: string) =>
  ((property ? schemas[name]?.properties?.[property]?.enum : schemas[name]?.enum) ?? []).filter(
    (value): value is string => typeof value === 'string',
  );

// The signing namespace (signing screen, verification report, seal images, e-certificate, agents and the arrival
// confirmation page) is registered lazily by those pages, so the shared catalogue test does not see it: this does.
describe('the signing catalogue', () => {
  it('has the same keys in ja and en', () => {
    const keys = (c: Catalogue) =>
      leaves(c)
        .map(([key]) => key)
        .sort();
    expect(keys(en)).toEqual(keys(ja));
  });

  it('has non-empty messages with the same placeholders in both languages', () => {
    const english = new Map(leaves(en));
    for (const [key, text] of leaves(ja)) {
      expect(text.trim(), key).not.toBe('');
      expect(english.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('names every signature type, two-factor channel and certificate status of the contract', () => {
    for (const catalogue of [ja, en, documentsJa, documentsEn] as Catalogue[]) {
      const types = catalogue.signatureTypes as Record<string, string>;
      const channels = catalogue.twoFactors as Record<string, string>;
      for (const code of enumOf('SignatureTypeCode')) expect(types[code], code).toBeTruthy();
      for (const code of enumOf('TwoFactorChannel')) expect(channels[code], code).toBeTruthy();
    }
    for (const code of enumOf('SignatureTypeCode')) expect(ja.signatureTypeHints[code as 'party'], code).toBeTruthy();
    for (const status of enumOf('ECertificateStatus')) {
      expect(ja.certificateStatuses[status as 'valid'], status).toBeTruthy();
    }
  });

  it('translates every problem code the verification report lists', () => {
    const codes = problemCodes();
    expect(codes).toEqual(expect.arrayContaining(['certificate-revoked', 'byte-range-gap-invalid', 'digest-mismatch']));
    for (const catalogue of [ja, en]) {
      for (const code of codes) expect((catalogue.problems as Record<string, string>)[code], code).toBeTruthy();
    }
  });

  it('names every verdict, status, revocation status, change kind and certification level of the contract', () => {
    const report = schemas.VerificationReportResponse?.properties?.data?.properties?.attributes?.properties ?? {};
    const signature = schemas.SignatureReport?.properties ?? {};
    const expectations: [string, (string | number | null)[], (c: Catalogue) => Catalogue][] = [
      ['verdicts', report.verdict?.enum ?? [], (c) => section(c, 'report.verdicts')],
      ['verdictHints', report.verdict?.enum ?? [], (c) => section(c, 'report.verdictHints')],
      ['statuses', signature.status?.enum ?? [], (c) => section(c, 'report.statuses')],
      ['integrities', signature.integrity?.enum ?? [], (c) => section(c, 'report.integrities')],
      ['chains', signature.chain?.enum ?? [], (c) => section(c, 'report.chains')],
      ['coverages', signature.coverage?.enum ?? [], (c) => section(c, 'report.coverages')],
      ['revocations', signature.revocation?.properties?.status?.enum ?? [], (c) => section(c, 'report.revocations')],
      [
        'revocation sources',
        signature.revocation?.properties?.source?.enum ?? [],
        (c) => section(c, 'report.revocationSources'),
      ],
      ['change kinds', enumOf('RevisionChange', 'kind'), (c) => section(c, 'report.changeKinds')],
      [
        'certification levels',
        report.certification?.properties?.level?.enum ?? [],
        (c) => section(c, 'report.certificationLevels'),
      ],
      ['revocation reasons', [...RFC5280_REASONS], (c) => section(c, 'revocationReasons')],
    ];
    for (const [name, enumeration, pick] of expectations) {
      // null is "not applicable" in the contract and has no words of its own.
      const values = enumeration.filter((value) => value !== null).map(String);
      expect(values.length, name).toBeGreaterThan(0);
      for (const catalogue of [ja, en] as Catalogue[]) {
        for (const value of values) expect(pick(catalogue)[value], `${name}: ${value}`).toBeTruthy();
      }
    }
  });
});

/** The RFC 5280 CRLReason names the contract refers to (revocation.reason, revocationReason). */
const RFC5280_REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'removeFromCRL',
  'privilegeWithdrawn',
  'aACompromise',
] as const;

function section(catalogue: Catalogue, path: string): Catalogue {
  return path.split('.').reduce<Catalogue>((node, key) => (node[key] ?? {}) as Catalogue, catalogue);
}

/** The stable codes the contract lists in SignatureReport.problems, without the explanations in brackets. */
function problemCodes(): string[] {
  const description = schemas.SignatureReport?.properties?.problems?.description ?? '';
  return description
    .replace(/\([^)]*\)/g, '')
    .replace(/^[^:]*:/, '')
    .split(/[,.\s]+/)
    .filter((code) => /^[a-z0-9-]+$/.test(code));
}
