import type { Locale } from '../../http/errors.ts';

/** Values a preview fills placeholders with; `organizationName` is the caller's organization's real name. */
export function sampleValues(locale: Locale, publicUrl: string, now: Date): Record<string, string> {
  const ja = locale === 'ja';
  const inOneWeek = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000);
  return {
    userName: ja ? '山田 太郎' : 'Taro Yamada',
    loginId: 'yamada-taro',
    loginIds: 'yamada-taro\nyamada-hanako',
    link: `${publicUrl}/login`,
    minutes: '30',
    changedAt: now.toISOString(),
    temporaryPassword: 'Tmp-4kq9x2Lm',
    expiresAt: inOneWeek.toISOString(),
    workspaceName: ja ? '取引先A社との契約' : 'Contracts with Client A',
    businessFlowName: ja ? '業務委託契約 2026年度' : 'Service agreement 2026',
    documentName: ja ? '業務委託契約書.pdf' : 'service-agreement.pdf',
    taskType: ja ? '承認' : 'approve',
    reason: ja ? '金額を修正してください。' : 'Please correct the amount.',
    toOrder: '1',
    inviterName: ja ? '佐藤 花子' : 'Hanako Sato',
    accessCode: 'K7QM-3XWP-9HTR-BD4N',
    code: '123456',
  };
}
