// The invite dialog's input and the checks the browser makes before inviteOneTimeUser; the server checks the same.

export type Channel = 'email' | 'qr';
export type GuestLocale = 'ja' | 'en';

export interface InviteInput {
  channel: Channel;
  name: string;
  email: string;
  locale: GuestLocale;
}

export type InviteField = 'name' | 'email';
export type InviteProblem = 'nameRequired' | 'nameTooLong' | 'emailRequired' | 'emailInvalid' | 'emailTooLong';
export type InviteProblems = Partial<Record<InviteField, InviteProblem[]>>;

export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/** One @, something before it, a dot in the domain, no spaces: the server's own check is the final word. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * By e-mail both name and address are required; by QR code the guest enters them on their phone, so the name is
 * optional and no address is asked for.
 */
export function validateInvite(input: InviteInput): InviteProblems {
  const problems: InviteProblems = {};
  const name = input.name.trim();
  const email = input.email.trim();
  if (input.channel === 'email' && name === '') problems.name = ['nameRequired'];
  else if (name.length > NAME_MAX) problems.name = ['nameTooLong'];
  if (input.channel === 'email') {
    if (email === '') problems.email = ['emailRequired'];
    else if (email.length > EMAIL_MAX) problems.email = ['emailTooLong'];
    else if (!EMAIL.test(email)) problems.email = ['emailInvalid'];
  }
  return problems;
}

/** The attributes inviteOneTimeUser takes: trimmed; a QR invitation sends no address and the name only when given. */
export function inviteAttributes(input: InviteInput) {
  const name = input.name.trim();
  if (input.channel === 'qr') return { channel: 'qr' as const, locale: input.locale, ...(name ? { name } : {}) };
  return { channel: 'email' as const, locale: input.locale, name, email: input.email.trim() };
}

/** The invite dialog's starting state: by e-mail, in the member's own language. */
export function blankInvite(language: string): InviteInput {
  return { channel: 'email', name: '', email: '', locale: language === 'en' ? 'en' : 'ja' };
}
