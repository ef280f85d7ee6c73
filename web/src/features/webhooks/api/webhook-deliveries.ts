import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type DeliveryAttempt = components['schemas']['WebhookDeliveryAttempt'];

export const ATTEMPT_PAGE_SIZE = 20;

/** GET /webhook-endpoints/{endpointId}/deliveries (listWebhookDeliveryAttempts): the log, newest first. */
export function useDeliveryAttempts(endpointId: string, page: number) {
  return useQuery({
    queryKey: ['webhook-attempts', endpointId, page],
    queryFn: async () =>
      unwrap(
        await api.GET('/webhook-endpoints/{endpointId}/deliveries', {
          params: { path: { endpointId }, query: { 'page[number]': page, 'page[size]': ATTEMPT_PAGE_SIZE } },
        }),
      ),
    placeholderData: keepPreviousData,
    // Attempts land a moment after a test or replay: look again while the log is open.
    refetchInterval: 3000,
  });
}

/** POST /webhook-deliveries/{deliveryId}/replays (replayWebhookDelivery). */
export function useReplayDelivery(endpointId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      unwrap(await api.POST('/webhook-deliveries/{deliveryId}/replays', { params: { path: { deliveryId } } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: ['webhook-attempts', endpointId] }),
  });
}
