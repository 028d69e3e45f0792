import { Link, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { useEnvironmentLink } from '../../components/EnvironmentInAddress';
import { type Filter, FilterForm, queryOf } from '../../components/FilterForm';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import {
  type OrderRow,
  useOrders,
  useReleaseReservation,
  useReservationsUnder,
} from '../../data/orders/queries';
import { formatDate, formatMoney } from '../../format';
import { KeyCodeSearch } from './KeyCodeSearch';
import { stateOf, totalOf } from './order-state';

const FILTERS: Filter[] = [
  { name: 'orderReference', label: 'Order reference' },
  { name: 'skuCode', label: 'SKU' },
  {
    name: 'kind',
    label: 'Kind',
    options: [
      ['order', 'Single order'],
      ['bulk', 'Bulk order line'],
      ['reservation', 'Reservation commit'],
      ['preorder', 'Pre-order'],
      ['pull', 'Pull'],
      ['export', 'Export'],
    ],
  },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
];

function OrderLink({ order }: { order: OrderRow }) {
  const link = useEnvironmentLink();
  return (
    <Link to={link(`/orders/${order.readableId}`)} className="mono">
      {order.orderReference}
    </Link>
  );
}

const columns: Column<OrderRow>[] = [
  { header: 'Placed', className: 'nowrap', cell: (o) => formatDate(o.createdAt) },
  { header: 'Order reference', cell: (o) => <OrderLink order={o} /> },
  { header: 'SKU', className: 'mono small', cell: (o) => o.skuCode },
  { header: 'Kind', cell: (o) => `${o.kind} · ${o.delivery}` },
  { header: 'State', cell: (o) => stateOf(o, o.afterSale) },
  {
    header: 'Amount',
    className: 'num nowrap',
    cell: (o) => (
      <>
        {formatMoney(totalOf(o), o.currencyCode)}
        {o.quantity > 1 && o.unitPriceCents !== null ? (
          <div className="muted small">
            {o.quantity} × {formatMoney(o.unitPriceCents, o.currencyCode)}
          </div>
        ) : null}
      </>
    ),
  },
];

/** Live hot-drop reservations under a searched reference: they are not orders until committed. */
function Reservations({ orderReference }: { orderReference: string }) {
  const session = useSession();
  const list = useReservationsUnder(orderReference);
  const cancel = useReleaseReservation();
  const rows = list.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card" aria-labelledby="reservations-title">
      <h2 id="reservations-title">Reservations under this reference</h2>
      <ErrorNotice error={cancel.error} />
      <ul className="stack-list">
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
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const orders = useOrders(query);
  const reference = params.get('orderReference');
  return (
    <>
      <PageHeader
        title="Orders"
        description="Orders, pulls and pre-orders of this environment, newest first. Keys are shown by id only."
      />
      <KeyCodeSearch />
      <FilterForm filters={FILTERS} />
      {reference ? <Reservations orderReference={reference} /> : null}
      <ErrorNotice error={orders.error} />
      <DataTable
        columns={columns}
        rows={orders.rows}
        rowKey={(row) => row.id}
        loaded={orders.loaded}
        empty="No order matches."
        caption="Orders"
        stackOnPhones
        more={orders.more}
      />
    </>
  );
}
