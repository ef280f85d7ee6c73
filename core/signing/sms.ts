/*
 * SMS as core queues it: one durable 'sms.send' job per message, in the caller's transaction, delivered by the sms
 * plugin's gateway. The job carries only the message's id (core/mail/outgoing.ts); the text is rendered from its
 * kind when it is sent. Only Japanese mobile numbers (060/070/080/090 and 8 more digits) are accepted.
 */
import type { Locale } from '../http/errors.ts';
import { renderPlaceholders } from '../mail/placeholders.ts';

export const SMS_SEND_JOB = 'sms.send';

/** Every SMS the service sends: its text per language, and the placeholders whose value is a credential. */
export const SMS_KIND_DEFINITIONS = {
  'signing-code': {
    secret: ['code'],
    text: {
      ja: 'Keiyaku 署名の認証コード: {{code}}（{{minutes}}分間有効）',
      en: 'Keiyaku signing code: {{code}} (valid {{minutes}} min, until {{expiry}} UTC)',
    },
  },
} as const satisfies Record<string, { secret: readonly string[]; text: Record<Locale, string> }>;

export type SmsKind = keyof typeof SMS_KIND_DEFINITIONS;

/** One SMS as the gateway sends it. */
export interface SmsMessage {
  id: string;
  to: string;
  text: string;
  organizationId: string | null;
  userId: string | null;
}

export function isSmsKind(value: string): value is SmsKind {
  return Object.hasOwn(SMS_KIND_DEFINITIONS, value);
}

/** The text of one SMS in the recipient's language, placeholders filled. */
export function composeSms(kind: SmsKind, locale: Locale, params: Record<string, string>): string {
  return renderPlaceholders(SMS_KIND_DEFINITIONS[kind].text[locale], params);
}

/** Digits only ("090-1234-5678" → "09012345678"), or null when it is not a Japanese mobile number. */
export function mobileNumber(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/[\s\-()]/g, '');
  return /^0[6789]0\d{8}$/.test(digits) ? digits : null;
}
