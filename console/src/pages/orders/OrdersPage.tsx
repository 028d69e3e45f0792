import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { formatMoney } from '../../components/money';
import { can, useSession } from '../../components/session';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import type { OrderAggregate, Page } from './types';

const FILTERS = ['orderReference', 'skuCode', 'kind', 'from', 'to'] as const;
const KINDS = [
  ['order', 'Order (single or bulk line)'],
  ['reservation', 'Reservation commit'],
  ['preorder', 'Pre-order'],
  ['pull', 'Pull'],
  ['export', 'Export'],
] as const;

const columns: Column<OrderAggregate>[] = [
  { header: 'Placed', className: 'nowrap', cell: (o) => formatDate(o.createdAt) },
  {
    header: 'Order reference',
    cell: (o) => (
      <Link to={`/orders/${o.readableId}`} className="mono">
        {o.orderReference}
      </Link>
    ),
  },
  { header: 'SKU', className: 'mono small', cell: (o) => o.skuCode },
  { header: 'Kind', cell: (o) => `${o.kind} · ${o.delivery}` },
  { header: 'Keys', className: 'num', cell: (o) => `${o.keyIds.length} / ${o.quantity}` },
  { header: 'Unit price', className: 'nowrap', cell: (o) => formatMoney(o.unitPriceCents, o.currencyCode) },
];

interface Reservation {
  reservationId: string;
  skuCode: string;
  quantity: number;
  status: string;
  expiresAt: string;
}

/** Live hot-drop reservations under a searched reference: they are not orders until committed. */
function Reservations({ orderReference }: { orderReference: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['reservations', session.environment, orderReference],
    queryFn: () =>
      call<{ data: Reservation[] }>(
        'GET',
        `/orders/reservations?orderReference=${encodeURIComponent(orderReference)}`,
      ),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => call('POST', `/orders/reservations/${id}/cancel`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['reservations'] }),
  });
  const rows = list.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card" aria-labelledby="reservations-title">
      <h2 id="reservations-title">Reservations under this reference</h2>
      <ErrorNotice error={cancel.error} />
      <ul className="plain-list">
        {rows.map((r) => (
          <li key={r.reservationId}>
            <span className="mono small">{r.reservationId}</span> · {r.skuCode} × {r.quantity} ·{' '}
            <span className="pill">{r.status}</span> · expires {formatDate(r.expiresAt)}{' '}
            {r.status === 'live' && can(session, 'orders:manage') ? (
              <button
                type="button"
                className="button danger small"
                onClick={() => cancel.mutate(r.reservationId)}
              >
                Release reservation
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Orders of the environment, newest first: search by reference, SKU, kind and dates. */
export function OrdersPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) query.set(name, name === 'from' || name === 'to' ? new Date(value).toISOString() : value);
  }
  const orders = useInfiniteQuery({
    queryKey: ['orders', session.environment, query.toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(query);
      if (pageParam) page.set('cursor', pageParam);
      return call<Page<OrderAggregate>>('GET', `/orders?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
  });
  const rows = orders.data?.pages.flatMap((page) => page.data) ?? [];
  const reference = params.get('orderReference');
  return (
    <>
      <PageHeader
        title="Orders"
        description="Orders, pulls and pre-orders of this environment, newest first. Keys are shown by id only."
      />
      <form
        className="card filters"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const next = new URLSearchParams();
          for (const name of FILTERS) {
            const value = String(form.get(name) ?? '').trim();
            if (value) next.set(name, value);
          }
          setParams(next);
        }}
      >
        <label className="field grow">
          <span>Order reference</span>
          <input name="orderReference" defaultValue={reference ?? ''} />
        </label>
        <label className="field">
          <span>SKU</span>
          <input name="skuCode" defaultValue={params.get('skuCode') ?? ''} />
        </label>
        <label className="field">
          <span>Kind</span>
          <select name="kind" defaultValue={params.get('kind') ?? ''}>
            <option value="">any</option>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>From</span>
          <input name="from" type="datetime-local" defaultValue={params.get('from') ?? ''} />
        </label>
        <label className="field">
          <span>To</span>
          <input name="to" type="datetime-local" defaultValue={params.get('to') ?? ''} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary">
            Search
          </button>
          <button type="button" className="button ghost" onClick={() => setParams(new URLSearchParams())}>
            Clear
          </button>
        </div>
      </form>
      {reference ? <Reservations orderReference={reference} /> : null}
      <ErrorNotice error={orders.error} />
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loaded={Boolean(orders.data)}
        empty="No order matches."
        caption="Orders"
        more={{
          label: 'Older orders',
          hasMore: orders.hasNextPage,
          loading: orders.isFetchingNextPage,
          onMore: () => orders.fetchNextPage(),
        }}
      />
    </>
  );
}
