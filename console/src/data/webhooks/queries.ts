import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, type Body, request } from '../api';
import { consoleKeys } from '../keys';
import { useKeysetList } from '../keyset';

export type EndpointList = Answer<'/webhooks', 'get'>;
export type Endpoint = EndpointList['data'][number];
export type CatalogEntry = EndpointList['meta']['eventTypes'][number];
export type Attempt = Answer<'/webhooks/{id}/deliveries', 'get'>['data'][number];
export type EventDeliveries = Answer<'/webhooks/events/{eventId}', 'get'>['data'];
export type EventDelivery = EventDeliveries['endpoints'][number]['deliveries'][number];
export type ReplayPreview = Answer<'/webhooks/{id}/replay', 'get'>['data'];
/** What an endpoint's save answers: its id and URL, and a secret when one was made (create, rotate). */
export type SavedEndpoint = { id: string; url: string; secret?: string };
/** A new endpoint (no `id`), or a change to one. */
export type EndpointSave =
  | ({ id?: undefined } & Body<'/webhooks', 'post'>)
  | ({ id: string } & Body<'/webhooks/{id}', 'patch'>);
type Step = 'test' | 'enable' | 'disable' | 'delete';
export type EndpointStep = { kind: Step; endpoint: Endpoint; eventType?: string };

/** The environment's endpoints and the catalog of event types (each with an example payload). */
export function useWebhookEndpoints(options: { staleTime?: number } = {}) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.webhooks.endpoints(environment),
    queryFn: () => request('get', '/webhooks'),
    staleTime: options.staleTime,
  });
}

/** Creates an endpoint or changes one (URL, event types, description, or a new secret). */
export function useSaveEndpoint(onSaved: (saved: SavedEndpoint) => void | Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: EndpointSave): Promise<SavedEndpoint> =>
      id === undefined
        ? (await request('post', '/webhooks', { body: body as Body<'/webhooks', 'post'> })).data
        : (await request('patch', '/webhooks/{id}', { params: { id }, body })).data,
    onSuccess: async (saved) => {
      await onSaved(saved);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.webhooks.all });
    },
  });
}

/** Sends a test event, pauses, resumes or deletes an endpoint. */
export function useEndpointStep(onDone: (step: EndpointStep) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (step: EndpointStep) => {
      const params = { id: step.endpoint.id };
      if (step.kind === 'delete') await request('delete', '/webhooks/{id}', { params });
      else if (step.kind === 'test') {
        await request('post', '/webhooks/{id}/test', { params, body: { eventType: step.eventType } });
      } else if (step.kind === 'enable') await request('post', '/webhooks/{id}/enable', { params });
      else await request('post', '/webhooks/{id}/disable', { params });
    },
    onSuccess: async (_, step) => {
      onDone(step);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.webhooks.all });
    },
  });
}

/** One endpoint's delivery attempts, newest first, polled while shown. */
export function useDeliveries(endpointId: string, filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(
    consoleKeys.webhooks.deliveries.list(environment, endpointId, filter.toString()),
    '/webhooks/{id}/deliveries',
    { params: { id: endpointId }, query: filter, moreLabel: 'Older deliveries', refetchInterval: 5000 },
  );
}

/** One event across every endpoint of the environment, polled while shown. */
export function useEventDeliveries(eventId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.webhooks.event(environment, eventId),
    queryFn: async () => (await request('get', '/webhooks/events/{eventId}', { params: { eventId } })).data,
    refetchInterval: 5000,
  });
}

/** Queues an event again for one endpoint (superseding a delivery still being tried). */
export function useResend(onDone: (status: string, endpointId: string, eventId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ endpointId, eventId }: { endpointId: string; eventId: string }) =>
      (await request('post', '/webhooks/{id}/resend', { params: { id: endpointId }, body: { eventId } }))
        .data,
    onSuccess: async (requeued, { endpointId, eventId }) => {
      onDone(requeued.status, endpointId, eventId);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.webhooks.all });
    },
  });
}

/** How many failed or undelivered events since `since` a replay would queue, without queuing them. */
export const useReplayPreview = (endpointId: string, onCounted: (preview: ReplayPreview) => void) =>
  useMutation({
    mutationFn: async (since: string) =>
      (await request('get', '/webhooks/{id}/replay', { params: { id: endpointId }, query: { since } })).data,
    onSuccess: onCounted,
  });

/** Queues the failed and undelivered events since `since` again, oldest first. */
export function useReplay(
  endpointId: string,
  onDone: (replayed: { replayed: number; more: boolean }) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (since: string) =>
      (await request('post', '/webhooks/{id}/replay', { params: { id: endpointId }, body: { since } })).data,
    onSuccess: async (replayed) => {
      onDone(replayed);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.webhooks.all });
    },
  });
}
