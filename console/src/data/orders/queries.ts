import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, type Body, request } from '../api';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

/** A row of the Orders list: the API's order and what happened to its keys since. */
export type OrderRow = RowOf<'/orders'>;
export type OrderDetail = Answer<'/orders/{id}', 'get'>['data'];
export type OrderAggregate = OrderDetail['order'];
export type AfterSale = OrderDetail['afterSale'];
export type Refund = OrderDetail['refunds'][number];
export type SaleLine = NonNullable<OrderDetail['saleLines']>[number];
/** The answer of a search by key code: the order only, never the code. */
export type KeyCodeMatch = Answer<'/orders/by-key-code', 'post'>['data'];
export type Reservation = Answer<'/orders/reservations', 'get'>['data'][number];

/** The environment's orders, newest first, filtered as the page's form says. */
export function useOrders(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.orders.list(environment, filter.toString()), '/orders', {
    query: filter,
    moreLabel: 'Older orders',
  });
}

/** One order with its keys, refunds, sale lines and events (by id or readable id). */
export function useOrder(id: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.orders.detail(environment, id),
    queryFn: async () => (await request('get', '/orders/{id}', { params: { id } })).data,
  });
}

/** Live hot-drop reservations under an order reference. */
export function useReservationsUnder(orderReference: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.orders.reservations(environment, orderReference),
    queryFn: async () => (await request('get', '/orders/reservations', { query: { orderReference } })).data,
  });
}

/** Releases a live reservation; the reservations under its reference are read again. */
export function useReleaseReservation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reservationId: string) =>
      request('post', '/orders/reservations/{reservationId}/cancel', { params: { reservationId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.orders.all }),
  });
}

/** Cancels an open pre-order; every order read (lists, the page, finance) may have changed. */
export function useCancelPreorder(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request('post', '/orders/{id}/cancel', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** A key action of an order page, with the body its route takes. */
export type KeyActionRequest =
  | { kind: 'refunds'; body: Body<'/orders/{id}/refunds', 'post'> }
  | { kind: 'returns'; body: Body<'/orders/{id}/returns', 'post'> }
  | { kind: 'replacements'; body: Body<'/orders/{id}/replacements', 'post'> };

/** Refunds, returns or replaces keys of one order; money and stock figures everywhere may change. */
export function useKeyAction(orderId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    // The page reads every figure again afterwards: the answers themselves are not needed.
    mutationFn: async (action: KeyActionRequest): Promise<void> => {
      const params = { id: orderId };
      if (action.kind === 'refunds')
        await request('post', '/orders/{id}/refunds', { params, body: action.body });
      else if (action.kind === 'returns')
        await request('post', '/orders/{id}/returns', { params, body: action.body });
      else await request('post', '/orders/{id}/replacements', { params, body: action.body });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      onDone();
    },
  });
}

/** The order holding a key code; the code travels in the body, never the address. */
export function useFindByKeyCode(onFound: (match: KeyCodeMatch) => void) {
  return useMutation({
    mutationFn: async (code: string) =>
      (await request('post', '/orders/by-key-code', { body: { code } })).data,
    onSuccess: onFound,
  });
}
