/** What the provider sent back to the page origin (moved to /sso by the home route), or nothing. */
export interface SsoSearch {
  state?: string;
  code?: string;
  iss?: string;
  error?: string;
}

export function validateSsoSearch(search: Record<string, unknown>): SsoSearch {
  const text = (value: unknown) => (typeof value === 'string' && value.length <= 4000 ? value : undefined);
  const result: SsoSearch = {};
  for (const key of ['state', 'code', 'iss', 'error'] as const) {
    const value = text(search[key]);
    if (value !== undefined) result[key] = value;
  }
  return result;
}
