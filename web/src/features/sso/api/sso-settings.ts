import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type SsoSettings = components['schemas']['SsoSettings'];
export type SsoSettingsInput = components['schemas']['SsoSettingsRequest']['data']['attributes'];

const KEY = ['sso-settings'];

/** GET /sso/settings (getSsoSettings): administrators only; the client secret is never returned. */
export async function getSsoSettings(): Promise<SsoSettings> {
  return unwrap(await api.GET('/sso/settings')).data.attributes;
}

export function useSsoSettings() {
  return useQuery(queryOptions({ queryKey: KEY, queryFn: getSsoSettings }));
}

/** PUT /sso/settings (updateSsoSettings): the issuer's discovery is checked on save (422 SSO_DISCOVERY_FAILED). */
export function useUpdateSsoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (attributes: SsoSettingsInput) =>
      unwrap(await api.PUT('/sso/settings', { body: { data: { type: 'SsoSettings', attributes } } })).data.attributes,
    onSuccess: (settings) => client.setQueryData(KEY, settings),
  });
}

/** DELETE /sso/settings (deleteSsoSettings). */
export function useDeleteSsoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const result = await api.DELETE('/sso/settings');
      if (!result.response.ok) unwrap(result);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
