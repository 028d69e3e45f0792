import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, request } from '../api';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

export type LogRow = RowOf<'/request-logs'>;
/** A key with requests in the log: the key filter's choice. */
export type LogKey = Answer<'/request-logs/keys', 'get'>['data'][number];

/** The environment's API request log, newest first, filtered as the page's form says. */
export function useRequestLogs(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.logs.list(environment, filter.toString()), '/request-logs', {
    query: filter,
    moreLabel: 'Older requests',
  });
}

/** The keys that have requests in the log, by name. */
export function useLoggedKeys() {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.logs.keys(environment),
    queryFn: async () => (await request('get', '/request-logs/keys')).data,
  });
}

/** One request of the log by its id (a 404 is an answer, not worth retrying). */
export function useRequestLogEntry(requestId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.logs.request(environment, requestId),
    queryFn: async () => (await request('get', '/request-logs/{requestId}', { params: { requestId } })).data,
    retry: false,
  });
}
