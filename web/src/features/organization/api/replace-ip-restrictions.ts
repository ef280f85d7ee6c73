import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export interface IpEntry {
  cidr: string;
  note: string;
}

/** PUT /organization/ip-restrictions (replaceIpRestrictions): the whole list at once; must keep the own IP. */
export async function replaceIpRestrictions(entries: IpEntry[]) {
  return unwrap(
    await api.PUT('/organization/ip-restrictions', {
      body: { data: entries.map((attributes) => ({ type: 'IpRestriction' as const, attributes })) },
    }),
  );
}

export function useReplaceIpRestrictions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: replaceIpRestrictions,
    onSuccess: (list) => client.setQueryData(['ip-restrictions'], list),
  });
}
