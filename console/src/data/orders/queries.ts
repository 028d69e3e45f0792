import { useSession } from '../../components/session';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

export type OrderAggregate = RowOf<'/orders'>;

/** The environment's orders, newest first, filtered as the page's form says. */
export function useOrders(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.orders.list(environment, filter.toString()), '/orders', {
    query: filter,
    moreLabel: 'Older orders',
  });
}
