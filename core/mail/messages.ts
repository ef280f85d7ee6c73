import type { Locale } from '../http/errors.ts';

/** Mail the service sends; issue [3/5] moves these texts into organization mail templates. */
export type MailKind = 'welcome' | 'password-reset' | 'user-id-reminder' | 'password-changed';

type Template = (params: Record<string, string>) => { subject: string; text: string };

const SIGNATURE = {
  ja: '\n\n--\nKeiyaku 電子契約サービス\nこのメールは送信専用です。',
  en: '\n\n--\nKeiyaku electronic contracts\nThis address does not receive replies.',
};

const TEMPLATES: Record<MailKind, Record<Locale, Template>> = {
  welcome: {
    ja: (p) => ({
      subject: '【Keiyaku】ご登録ありがとうございます',
      text: `${p.name} 様\n\n${p.organization} の登録が完了しました。ユーザーID「${p.loginId}」でログインしてください。\n\n${p.link}`,
    }),
    en: (p) => ({
      subject: '[Keiyaku] Welcome to Keiyaku',
      text: `Dear ${p.name},\n\n${p.organization} is registered. Sign in with the user ID "${p.loginId}".\n\n${p.link}`,
    }),
  },
  'password-reset': {
    ja: (p) => ({
      subject: '【Keiyaku】パスワード再設定のご案内',
      text: `${p.name} 様\n\nパスワード再設定のお申し込みを受け付けました。\n下記のリンクから${p.minutes}分以内に新しいパスワードを設定してください。\n\n${p.link}\n\nお心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。`,
    }),
    en: (p) => ({
      subject: '[Keiyaku] Reset your password',
      text: `Dear ${p.name},\n\nWe received a request to reset your password.\nSet a new password within ${p.minutes} minutes at:\n\n${p.link}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.`,
    }),
  },
  'user-id-reminder': {
    ja: (p) => ({
      subject: '【Keiyaku】ユーザーIDのお知らせ',
      text: `このメールアドレスで登録されているユーザーIDは次のとおりです。\n\n${p.loginIds}\n\nログイン: ${p.link}`,
    }),
    en: (p) => ({
      subject: '[Keiyaku] Your user ID',
      text: `These user IDs are registered with this e-mail address:\n\n${p.loginIds}\n\nSign in: ${p.link}`,
    }),
  },
  'password-changed': {
    ja: (p) => ({
      subject: '【Keiyaku】パスワードが変更されました',
      text: `${p.name} 様\n\nパスワードが変更されました(${p.at})。\nお心当たりがない場合は、至急管理者にご連絡ください。`,
    }),
    en: (p) => ({
      subject: '[Keiyaku] Your password was changed',
      text: `Dear ${p.name},\n\nYour password was changed (${p.at}).\nIf this was not you, contact your administrator at once.`,
    }),
  },
};

/** Subject and body of one mail in the recipient's language. */
export function composeMail(kind: MailKind, locale: Locale, params: Record<string, string>) {
  const { subject, text } = TEMPLATES[kind][locale](params);
  return { subject, text: text + SIGNATURE[locale] };
}
