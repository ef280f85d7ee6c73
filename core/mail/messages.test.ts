import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { composeMail, MAIL_KIND_DEFINITIONS, MAIL_KINDS, mailTime } from './messages.ts';
import { placeholdersIn } from './placeholders.ts';

describe('mail messages', () => {
  it('renders the built-in texts exactly as before templates existed, from the callers’ parameter names', () => {
    const welcome = composeMail('welcome', 'ja', {
      name: '山田 太郎',
      organization: '株式会社テスト',
      loginId: 'yamada',
      link: 'https://keiyaku.example/login',
    });
    expect(welcome).toEqual({
      subject: '【Keiyaku】ご登録ありがとうございます',
      text: '山田 太郎 様\n\n株式会社テスト の登録が完了しました。ユーザーID「yamada」でログインしてください。\n\nhttps://keiyaku.example/login\n\n--\nKeiyaku 電子契約サービス\nこのメールは送信専用です。',
    });
    const changed = composeMail('password-changed', 'en', { name: 'Taro', at: '2026-11-21T00:00:00.000Z' });
    expect(changed.text).toBe(
      'Dear Taro,\n\nYour password was changed (November 21, 2026 at 09:00 JST (UTC+9)).\nIf this was not you, contact your administrator at once.\n\n--\nKeiyaku electronic contracts\nThis address does not receive replies.',
    );
  });

  it('writes timestamps in Japan time for the reader, never as raw UTC ISO strings', () => {
    const code = composeMail('signing-code', 'ja', {
      userName: '山田 太郎',
      code: '123456',
      documentName: '売買契約書',
      expiresAt: '2026-11-25T12:08:19.139Z',
    });
    expect(code.text).toContain('有効期限は2026年11月25日 21:08です。');
    expect(code.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(mailTime('2026-11-25T12:08:19.139Z', 'en')).toBe('November 25, 2026 at 21:08 JST (UTC+9)');
    expect(mailTime('売買契約書', 'ja')).toBe('売買契約書');
  });

  it('gives subjects no stray spaces, even where a value is empty', () => {
    for (const kind of MAIL_KINDS) {
      for (const locale of ['ja', 'en'] as const) {
        const { subject } = composeMail(kind, locale, {});
        expect(subject, `${kind} ${locale}`).toBe(subject.trim());
        expect(subject, `${kind} ${locale}`).not.toMatch(/\s{2}/);
        if (locale === 'ja') expect(subject, kind).not.toMatch(/ [ぁ-んァ-ヶ一-龠「]|[」ぁ-んァ-ヶ一-龠] /);
      }
    }
    expect(composeMail('task-assigned', 'ja', { documentName: '売買契約書', taskType: '署名' }).subject).toBe(
      '【Keiyaku】書類「売買契約書」のタスク（署名）が届きました',
    );
  });

  it('inserts values as they are: a value holding braces is not expanded again, and no HTML escaping happens', () => {
    const mail = composeMail(
      'welcome',
      'en',
      { userName: '{{link}} <b>&', loginId: 'x', link: 'L' },
      { subject: 'Hi {{ userName }}', body: '{{userName}}|{{link}}' },
    );
    expect(mail.subject).toBe('Hi {{link}} <b>&');
    expect(mail.text.startsWith('{{link}} <b>&|L\n\n--\n')).toBe(true);
  });

  it('declares every placeholder its built-in texts use, required ones included, in both languages', () => {
    for (const kind of MAIL_KINDS) {
      const definition = MAIL_KIND_DEFINITIONS[kind];
      for (const locale of ['ja', 'en'] as const) {
        const { subject, body } = definition.defaults[locale];
        for (const name of placeholdersIn(subject + body)) expect(definition.placeholders, kind).toContain(name);
        for (const name of definition.required) expect(placeholdersIn(body), `${kind} ${locale}`).toContain(name);
      }
    }
  });

  it('lists the same mail kinds as the contract (MailKind)', () => {
    const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    expect(contract.components.schemas.MailKind.enum).toEqual([...MAIL_KINDS]);
  });
});
