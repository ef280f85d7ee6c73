import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type WebhookEndpoint = components['schemas']['WebhookEndpointResource'];
export type WebhookEventType = components['schemas']['WebhookEventType'];
export type EndpointWithSecret = components['schemas']['WebhookEndpointWithSecretResponse'];

const KEY = ['webhook-endpoints'];

/** GET /webhook-endpoints (listWebhookEndpoints): administrators; secrets are never returned. */
export const webhookEndpointsQueryOptions = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: async () => unwrap(await api.GET('/webhook-endpoints')).data,
  });

export function useWebhookEndpoints() {
  return useQuery(webhookEndpointsQueryOptions());
}

/** GET /webhook-event-types (listWebhookEventTypes). */
export function useWebhookEventTypes() {
  return useQuery({
    queryKey: ['webhook-event-types'],
    queryFn: async () => unwrap(await api.GET('/webhook-event-types')).data.map((item) => item.id),
    staleTime: Infinity,
  });
}

export interface EndpointInput {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
}

/** POST /webhook-endpoints (createWebhookEndpoint): answers the secret, shown once. */
export function useCreateWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (attributes: EndpointInput) =>
      unwrap(await api.POST('/webhook-endpoints', { body: { data: { type: 'WebhookEndpoint', attributes } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** PATCH /webhook-endpoints/{endpointId} (updateWebhookEndpoint): fields, or enabled on / off. */
export function useUpdateWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      ...attributes
    }: Partial<EndpointInput> & { id: string; enabled?: boolean; lockVersion: number }) =>
      unwrap(
        await api.PATCH('/webhook-endpoints/{endpointId}', {
          params: { path: { endpointId: id } },
          body: { data: { type: 'WebhookEndpoint', attributes } },
        }),
      ).data,
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /webhook-endpoints/{endpointId} (deleteWebhookEndpoint). */
export function useDeleteWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const result = await api.DELETE('/webhook-endpoints/{endpointId}', { params: { path: { endpointId: id } } });
      if (!result.response.ok) unwrap(result);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /webhook-endpoints/{endpointId}/secret (rotateWebhookSecret): the new secret, shown once. */
export function useRotateWebhookSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/webhook-endpoints/{endpointId}/secret', { params: { path: { endpointId: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /webhook-endpoints/{endpointId}/tests (sendWebhookTest): one attempt, shown in the delivery log. */
export function useSendWebhookTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/webhook-endpoints/{endpointId}/tests', { params: { path: { endpointId: id } } })).data,
    onSuccess: (_delivery, id) => client.invalidateQueries({ queryKey: ['webhook-attempts', id] }),
  });
}
