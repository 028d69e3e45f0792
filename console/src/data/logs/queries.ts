import { useSession } from '../../components/session';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

export type LogRow = RowOf<'/request-logs'>;

/** The environment's API request log, newest first, filtered as the page's form says. */
export function useRequestLogs(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.logs.list(environment, filter.toString()), '/request-logs', {
    query: filter,
    moreLabel: 'Older requests',
  });
}
