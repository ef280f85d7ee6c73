import type { ApiKeyScope } from '../api/api-keys.ts';

/** The scope checkboxes, by area, in the order the contract lists them (logs has read only). */
export const SCOPE_AREAS: { area: string; scopes: ApiKeyScope[] }[] = [
  { area: 'flows', scopes: ['flows:read', 'flows:write'] },
  { area: 'users', scopes: ['users:read', 'users:write'] },
  { area: 'organization', scopes: ['organization:read', 'organization:write'] },
  { area: 'logs', scopes: ['logs:read'] },
];

/** The expiry choices of a new key: days from now, none, or a date the administrator picks. */
export const EXPIRY_CHOICES = ['30', '90', '365', 'never', 'date'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/** The expiry to send: end of the chosen day in Japan time for a date, `now + days` otherwise, null for never. */
export function expiresAtOf(choice: ExpiryChoice, date: string, now = new Date()): string | null | undefined {
  if (choice === 'never') return null;
  if (choice === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59+09:00` : undefined;
  return new Date(now.getTime() + Number(choice) * 86_400_000).toISOString();
}

/** The overlap choices (hours) a rotation offers; 24 is the default. */
export const OVERLAP_CHOICES = [0, 1, 24, 72, 168] as const;
