/** Search params of the join page: the mail's `invitation`, or `invitationToken` after sign-in / sign-up. */
export interface JoinSearch {
  invitation?: string;
  invitationToken?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

export function validateJoinSearch(raw: Record<string, unknown>): JoinSearch {
  return { invitation: text(raw.invitation), invitationToken: text(raw.invitationToken) };
}
