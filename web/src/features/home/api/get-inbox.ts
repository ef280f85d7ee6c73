import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type Inbox = components['schemas']['InboxResponse']['data']['attributes'];
export type InboxSection = components['schemas']['InboxSection'];
export type InboxItem = components['schemas']['InboxItem'];
export type InboxWarning = components['schemas']['InboxWarning'];

/** GET /me/inbox (getInbox): the home screen's sections and warnings in one request. */
export async function getInbox() {
  return unwrap(await api.GET('/me/inbox'));
}

export const inboxQueryOptions = () => queryOptions({ queryKey: ['me', 'inbox'], queryFn: getInbox });

export function useInbox() {
  return useQuery(inboxQueryOptions());
}
