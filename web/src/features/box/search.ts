/** What Box sent back to /box/callback: the code and state, or an error (access_denied) with the state. */
export interface BoxCallbackSearch {
  code?: string;
  state?: string;
  error?: string;
}

export function validateBoxCallbackSearch(search: Record<string, unknown>): BoxCallbackSearch {
  const text = (value: unknown) => (typeof value === 'string' && value.length <= 2000 ? value : undefined);
  const result: BoxCallbackSearch = {};
  for (const key of ['code', 'state', 'error'] as const) {
    const value = text(search[key]);
    if (value !== undefined) result[key] = value;
  }
  return result;
}
