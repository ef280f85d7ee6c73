import { cleanup, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import en from '../../../i18n/en/signing.json';
import { initI18n } from '../../../i18n/index.ts';
import ja from '../../../i18n/ja/signing.json';
import type { SignatureReport, VerificationReport } from '../api/verify-signatures.ts';
import { SignatureReportView } from './signature-report.tsx';

const CATALOGUES = { ja, en } as const;
type Language = keyof typeof CATALOGUES;

beforeAll(async () => {
  await initI18n('ja');
  for (const language of ['ja', 'en'] as const) i18next.addResourceBundle(language, 'signing', CATALOGUES[language]);
});

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('ja');
});

const SUBJECT = 'CN=山田 太郎, O=Keiyaku Test, C=JP';

function signature(overrides: Partial<SignatureReport> = {}): SignatureReport {
  return {
    index: 0,
    fieldName: 'Signature1',
    subFilter: 'ETSI.CAdES.detached',
    kind: 'signature',
    status: 'valid',
    revision: 2,
    certification: null,
    signerName: '山田 太郎',
    certificate: {
      subject: SUBJECT,
      issuer: 'CN=Keiyaku Local CA',
      serialNumber: '0a1b2c',
      notBefore: '2026-01-01T00:00:00Z',
      notAfter: '2027-01-01T00:00:00Z',
      fingerprintSha256: 'ab'.repeat(32),
    },
    claimedTime: '2026-03-01T01:00:00Z',
    byteRange: [0, 100, 200, 300],
    integrity: 'valid',
    coverage: 'whole-document',
    chain: 'trusted',
    chainSubjects: [SUBJECT, 'CN=Keiyaku Local CA'],
    timestamp: { time: '2026-03-01T01:00:05Z', tsa: 'CN=Keiyaku TSA', valid: true, local: true, chain: 'trusted' },
    revocation: {
      status: 'good',
      subject: SUBJECT,
      source: 'online',
      method: 'ocsp',
      revokedAt: null,
      reason: null,
      detail: null,
    },
    ltv: { dss: false, crls: 0, ocspResponses: 0, certificates: 0 },
    padesLevel: 'B-T',
    problems: [],
    ...overrides,
  };
}

function report(attributes: Partial<VerificationReport['attributes']> = {}): VerificationReport {
  return {
    type: 'SignatureVerification',
    id: 'cd'.repeat(32),
    attributes: {
      revisions: 2,
      verdict: 'valid',
      signatures: [signature()],
      signaturesOmitted: 0,
      certification: null,
      changes: [],
      encrypted: false,
      allIntact: true,
      unsignedTrailingBytes: 0,
      ...attributes,
    },
  };
}

async function show(value: VerificationReport, language: Language = 'ja') {
  await i18next.changeLanguage(language);
  return render(<SignatureReportView report={value} />);
}

const dateTime = (language: Language, value: string) => japanDateTimeFormat(language).format(new Date(value));

describe('the verification report', () => {
  const verdicts: [VerificationReport['attributes']['verdict'], string][] = [
    ['changed-after-signing', 'report-verdict-danger'],
    ['invalid', 'report-verdict-danger'],
    ['indeterminate', 'report-verdict-warn'],
    ['valid', 'report-verdict-ok'],
    ['no-signatures', 'report-verdict-neutral'],
  ];
  for (const language of ['ja', 'en'] as const) {
    it.each(verdicts)(`shows the %s verdict first, as a coloured banner, in ${language}`, async (verdict, tone) => {
      const signatures = verdict === 'no-signatures' ? [] : [signature()];
      const { container } = await show(report({ verdict, signatures }), language);
      const banner = screen.getByRole('status');
      expect(within(banner).getByText(CATALOGUES[language].report.verdicts[verdict], { exact: true })).toBeTruthy();
      expect(banner.className).toContain(tone);
      // Nothing comes before the verdict.
      expect(container.querySelector('.signature-report')?.firstElementChild).toBe(banner);
    });
  }

  it('words the banners as the issue asks in both languages', () => {
    expect(ja.report.verdicts).toEqual({
      altered: '改ざんされています',
      'changed-after-signing': '署名後に変更されています',
      invalid: '無効な署名があります',
      indeterminate: '検証できない署名があります',
      valid: 'すべての署名は有効です',
      'no-signatures': '署名がありません',
    });
    expect(en.report.verdicts['changed-after-signing']).toBe('Changed after signing');
    expect(ja.report.certificationLevels['1']).toBe('作成者署名（認証）：変更不可');
    expect(en.report.certificationLevels['1']).toBe('Certified: no changes allowed');
  });

  it('lists the changes after signing by revision, each in words, allowed or not, with its page', async () => {
    await show(
      report({
        verdict: 'changed-after-signing',
        revisions: 4,
        changes: [
          { revision: 4, kind: 'dss', allowed: true, page: null, objects: ['20 0 R'] },
          { revision: 3, kind: 'page-content', allowed: false, page: 1, objects: ['12 0 R', '13 0 R'] },
          { revision: 3, kind: 'annotation', allowed: true, page: 2, objects: [] },
        ],
      }),
    );
    const changes = screen.getByRole('region', { name: ja.report.changesTitle });
    const headings = within(changes)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(['3版目での変更', '4版目での変更']);
    const items = within(changes)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items[0]).toBe('許可されていない変更 ページの内容の変更（1ページ目）対象のオブジェクト：12 0 R、13 0 R');
    expect(items[1]).toBe('許可された変更 注釈の追加・変更（2ページ目）');
    expect(items[2]).toBe('許可された変更 長期検証用の情報の追加対象のオブジェクト：20 0 R');
  });

  it('says so when nothing changed after signing', async () => {
    await show(report());
    const changes = screen.getByRole('region', { name: ja.report.changesTitle });
    expect(within(changes).getByText(ja.report.noChanges)).toBeTruthy();
  });

  it('calls a rewritten signature altered and never says nothing changed after signing', async () => {
    await show(
      report({
        verdict: 'invalid',
        allIntact: false,
        signatures: [signature({ status: 'invalid', integrity: 'invalid', problems: ['digest-mismatch'] })],
      }),
    );
    const banner = screen.getByRole('status');
    expect(within(banner).getByText(ja.report.verdicts.altered)).toBeTruthy();
    expect(within(banner).queryByText(ja.report.verdicts.invalid)).toBeNull();
    const changes = screen.getByRole('region', { name: ja.report.changesTitle });
    expect(within(changes).queryByText(ja.report.noChanges)).toBeNull();
    expect(within(changes).getByText(ja.report.changesUnknown)).toBeTruthy();
  });

  it('shows a certification with level 1 that a later revision violated', async () => {
    const certified = signature({ index: 3, certification: 1 });
    await show(
      report({
        verdict: 'changed-after-signing',
        signatures: [certified],
        certification: { level: 1, signatureIndex: 3, violated: true },
      }),
      'en',
    );
    const section = screen.getByRole('region', { name: en.report.certificationTitle });
    expect(within(section).getByText('Certified: no changes allowed')).toBeTruthy();
    expect(within(section).getByText('Certified by signature 1.')).toBeTruthy();
    expect(within(section).getByText(en.report.certificationViolated)).toBeTruthy();
  });

  it('shows a revoked certificate with the date and the reason in words, and the status invalid', async () => {
    const revokedAt = '2026-02-01T03:00:00Z';
    await show(
      report({
        verdict: 'invalid',
        signatures: [
          signature({
            status: 'invalid',
            problems: ['certificate-revoked'],
            revocation: {
              status: 'revoked',
              subject: SUBJECT,
              source: 'online',
              method: 'crl',
              revokedAt,
              reason: 'keyCompromise',
              detail: null,
            },
          }),
        ],
      }),
    );
    const entry = screen.getByRole('region', { name: '署名 1' });
    expect(within(entry).getByText('無効', { exact: true })).toBeTruthy();
    expect(within(entry).getByText(`失効しています（${dateTime('ja', revokedAt)}、理由：鍵の危殆化）`)).toBeTruthy();
    expect(within(entry).getByText('確認に使った情報：CRL、発行元への問い合わせ')).toBeTruthy();
    expect(within(entry).getByText(ja.problems['certificate-revoked'])).toBeTruthy();
  });

  it('shows a revocation after signing in English, and an unknown reason code as the code', async () => {
    const revokedAt = '2026-04-01T00:00:00Z';
    await show(
      report({
        signatures: [
          signature({
            problems: ['certificate-revoked-after-signing'],
            revocation: {
              status: 'revoked-after-signing',
              subject: SUBJECT,
              source: 'dss',
              method: 'ocsp',
              revokedAt,
              reason: 'someFutureReason',
              detail: null,
            },
          }),
        ],
      }),
      'en',
    );
    const entry = screen.getByRole('region', { name: 'Signature 1' });
    expect(
      within(entry).getByText(`Revoked after signing (${dateTime('en', revokedAt)}; reason: someFutureReason)`),
    ).toBeTruthy();
    expect(within(entry).getByText(en.problems['certificate-revoked-after-signing'])).toBeTruthy();
  });

  it('shows a signature that cannot be checked: status, unknown revocation with its detail and the certificate concerned', async () => {
    await show(
      report({
        verdict: 'indeterminate',
        signatures: [
          signature({
            status: 'indeterminate',
            problems: ['revocation-unavailable'],
            revocation: {
              status: 'unknown',
              subject: 'CN=Keiyaku Intermediate CA',
              source: null,
              method: null,
              revokedAt: null,
              reason: null,
              detail: 'http://crl.example/ca.crl: 503',
            },
          }),
        ],
      }),
    );
    const entry = screen.getByRole('region', { name: '署名 1' });
    expect(within(entry).getByText('検証できません', { exact: true })).toBeTruthy();
    expect(within(entry).getByText('失効情報を確認できません（http://crl.example/ca.crl: 503）')).toBeTruthy();
    expect(within(entry).getByText('対象の証明書：CN=Keiyaku Intermediate CA')).toBeTruthy();
    expect(within(entry).getByText(ja.problems['revocation-unavailable'])).toBeTruthy();
  });

  it('shows a broken signature whose integrity is unknown, and an unknown problem code as the code itself', async () => {
    await show(
      report({
        verdict: 'indeterminate',
        allIntact: false,
        signatures: [
          signature({
            status: 'indeterminate',
            integrity: 'unknown',
            revision: null,
            timestamp: null,
            padesLevel: null,
            problems: ['byte-range-gap-invalid', 'a-code-from-the-future'],
            revocation: { ...signature().revocation, status: 'not-checked', source: null, method: null },
          }),
        ],
      }),
    );
    const entry = screen.getByRole('region', { name: '署名 1' });
    expect(within(entry).getByText(ja.report.integrities.unknown)).toBeTruthy();
    expect(within(entry).getByText(ja.report.revisionNone)).toBeTruthy();
    expect(within(entry).getByText(ja.report.revocations['not-checked'])).toBeTruthy();
    const problems = within(entry)
      .getAllByRole('listitem')
      .filter((item) => item.dataset.problem)
      .map((item) => item.textContent);
    expect(problems).toEqual([ja.problems['byte-range-gap-invalid'], 'a-code-from-the-future']);
  });

  it('labels the built-in time-stamping authority and the timestamp chain', async () => {
    await show(report());
    const entry = screen.getByRole('region', { name: '署名 1' });
    expect(within(entry).getByText(ja.report.localTsa)).toBeTruthy();
    // Not "trusted" beside "not publicly trusted": the chain ends at the service's own authority.
    expect(within(entry).getByText(`タイムスタンプ局の証明書チェーン：${ja.report.chainLocal}`)).toBeTruthy();
    expect(within(entry).queryByText('タイムスタンプ局の証明書チェーン：信頼済み')).toBeNull();
    expect(within(entry).getByText('失効していません')).toBeTruthy();
  });

  it('notes an encrypted file and the signatures left out of the report', async () => {
    await show(report({ encrypted: true, signaturesOmitted: 3 }), 'en');
    expect(screen.getByText(en.report.encrypted)).toBeTruthy();
    expect(screen.getByText('3 signatures beyond the reporting limit are not shown.')).toBeTruthy();
  });
});
