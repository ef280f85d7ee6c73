import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type ApiKey = components['schemas']['ApiKeyResource'];
export type ApiKeyScope = components['schemas']['ApiKeyScope'];
export type ApiKeyCreateInput = components['schemas']['ApiKeyCreateRequest']['data']['attributes'];
/** A key with its secret, answered once by creation and rotation. */
export type IssuedApiKey = components['schemas']['ApiKeySecretResponse'];

const KEY = ['api-keys'];

/** GET /organization/api-keys (listApiKeys): administrators, standard plan and above; never the secrets. */
export async function listApiKeys(): Promise<ApiKey[]> {
  return unwrap(await api.GET('/organization/api-keys')).data;
}

export const apiKeysQuery = queryOptions({ queryKey: KEY, queryFn: listApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQuery);
}

/** POST /organization/api-keys (createApiKey): answers the secret in `meta.secret`, this once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (attributes: ApiKeyCreateInput): Promise<IssuedApiKey> =>
      unwrap(await api.POST('/organization/api-keys', { body: { data: { type: 'ApiKey', attributes } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /organization/api-keys/{apiKeyId}/rotate (rotateApiKey): a new secret; the old one works `overlapHours`. */
export function useRotateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, overlapHours }: { id: string; overlapHours: number }): Promise<IssuedApiKey> =>
      unwrap(
        await api.POST('/organization/api-keys/{apiKeyId}/rotate', {
          params: { path: { apiKeyId: id } },
          body: { data: { type: 'ApiKeyRotation', attributes: { overlapHours } } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /organization/api-keys/{apiKeyId}/revoke (revokeApiKey): the key stops working at once. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<ApiKey> =>
      unwrap(await api.POST('/organization/api-keys/{apiKeyId}/revoke', { params: { path: { apiKeyId: id } } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
