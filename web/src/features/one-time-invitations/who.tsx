import type { TFunction } from 'i18next';

/** How a guest is named on screen: their name, else their address, else "QR code guest" (not claimed yet). */
export function guestLabel(guest: { name?: string | null; email?: string | null }, t: TFunction): string {
  return guest.name?.trim() || guest.email || t('oneTimeInvitations:qrGuest');
}

/** An e-mail address that may wrap before its @ and nowhere else but hyphens (not "example.co / m"). */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
