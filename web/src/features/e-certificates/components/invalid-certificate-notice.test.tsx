import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import openapiSource from '../../../../../openapi.yaml?raw';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import en from '../../../i18n/en/signing.json';
import { initI18n } from '../../../i18n/index.ts';
import ja from '../../../i18n/ja/signing.json';
import type { ECertificate } from '../api/get-my-e-certificate.ts';
import { InvalidCertificateNotice } from './invalid-certificate-notice.tsx';

beforeAll(async () => {
  await initI18n('ja');
  i18next.addResourceBundle('ja', 'signing', ja);
  i18next.addResourceBundle('en', 'signing', en);
});

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('ja');
});

function certificate(attributes: Partial<ECertificate['attributes']>): ECertificate {
  return {
    type: 'ECertificate',
    id: '00000000-0000-4000-8000-000000000001',
    attributes: {
      status: 'invalid',
      invalidReason: 'revoked',
      revokedAt: '2026-02-01T03:00:00Z',
      revocationReason: 'keyCompromise',
      revocationCheckedAt: '2026-02-02T00:00:00Z',
      subject: 'CN=山田 太郎',
      issuer: 'CN=Keiyaku Local CA',
      serialNumber: '0a1b',
      keyAlgorithm: 'RSA',
      notBefore: '2026-01-01T00:00:00Z',
      notAfter: '2027-01-01T00:00:00Z',
      pinLocked: false,
      ...attributes,
    },
  };
}

const at = (language: string, value: string) => japanDateTimeFormat(language).format(new Date(value));

describe('the invalid e-certificate notice', () => {
  it('says the issuer revoked it, when and why, and asks for a new one (ja)', () => {
    render(<InvalidCertificateNotice certificate={certificate({})} />);
    expect(screen.getByRole('alert').textContent).toBe(
      `この電子証明書は発行元により失効されています（失効日時：${at('ja', '2026-02-01T03:00:00Z')}、理由：鍵の危殆化）。新しい電子証明書を登録してください。`,
    );
  });

  it('says the same in English', async () => {
    await i18next.changeLanguage('en');
    render(<InvalidCertificateNotice certificate={certificate({})} />);
    expect(screen.getByRole('alert').textContent).toBe(
      `This e-certificate has been revoked by its issuer (revoked at ${at('en', '2026-02-01T03:00:00Z')}; reason: key compromise). Please register a new e-certificate.`,
    );
  });

  it('leaves out the brackets when the issuer gave neither date nor reason', () => {
    render(<InvalidCertificateNotice certificate={certificate({ revokedAt: null, revocationReason: null })} />);
    expect(screen.getByRole('alert').textContent).toBe(ja.certificate.revoked);
  });

  it('says when a certificate that is not valid yet starts', () => {
    render(<InvalidCertificateNotice certificate={certificate({ invalidReason: 'not-yet-valid', revokedAt: null })} />);
    expect(screen.getByRole('alert').textContent).toBe(
      `この電子証明書の有効期間はまだ始まっていません（開始日時：${at('ja', '2026-01-01T00:00:00Z')}）。有効期間が始まるまで署名に使えません。`,
    );
  });

  it('shows nothing for a certificate that is not invalid', () => {
    const { container } = render(
      <InvalidCertificateNotice certificate={certificate({ status: 'valid', invalidReason: null })} />,
    );
    expect(container.textContent).toBe('');
  });

  it('has words for every invalidReason of the contract', () => {
    type Schema = { enum?: (string | null)[]; properties?: Record<string, Schema> };
    const schemas = (parse(openapiSource) as { components: { schemas: Record<string, Schema> } }).components.schemas;
    const reasons = schemas.ECertificateResponse?.properties?.data?.properties?.attributes?.properties?.invalidReason;
    const known: Record<string, string> = { revoked: 'revokedWithDetails', 'not-yet-valid': 'notYetValid' };
    const values = (reasons?.enum ?? []).filter((value): value is string => value !== null);
    expect(values.length).toBeGreaterThan(0);
    for (const reason of values) {
      expect(known[reason], reason).toBeDefined();
      for (const catalogue of [ja, en]) {
        expect((catalogue.certificate as Record<string, string>)[known[reason]!], reason).toBeTruthy();
      }
    }
  });
});
