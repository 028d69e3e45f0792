import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConsoleError, type Environment } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { inEnvironment, useEnvironmentLink } from '../../components/EnvironmentInAddress';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import {
  type OrderDetail,
  type Refund,
  type SaleLine,
  useCancelPreorder,
  useOrder,
} from '../../data/orders/queries';
import { formatDate, formatMoney } from '../../format';
import { type KeyAction, KeyActionDialog } from './KeyActionDialog';
import { adjustmentLabel, stateOf, totalOf } from './order-state';

const refundColumns: Column<Refund>[] = [
  { header: 'When', className: 'nowrap', cell: (r) => formatDate(r.createdAt) },
  { header: 'Type', cell: (r) => `${adjustmentLabel(r)}${r.reinstatedAt ? ', reinstated' : ''}` },
  {
    header: 'Reference',
    className: 'mono small',
    cell: (r) => r.refundReference ?? r.chargebackReference ?? '—',
  },
  { header: 'Keys', className: 'mono small', cell: (r) => r.keyIds.join(', ') },
  {
    header: 'Amount',
    className: 'nowrap',
    cell: (r) => r.amounts.map((a) => formatMoney(a.grossCents, a.currencyCode)).join(', '),
  },
  { header: 'Reason', cell: (r) => r.reason ?? '—' },
];

const saleColumns: Column<SaleLine>[] = [
  { header: 'When', className: 'nowrap', cell: (l) => formatDate(l.createdAt) },
  { header: 'Entry', cell: (l) => l.entryType },
  { header: 'Quantity', className: 'num', cell: (l) => l.quantity },
  { header: 'Sale', className: 'nowrap', cell: (l) => formatMoney(l.salePriceCents, l.currencyCode) },
  {
    header: 'Wholesale',
    className: 'nowrap',
    cell: (l) => formatMoney(l.wholesaleCents, l.wholesaleCurrencyCode),
  },
  { header: 'Transaction', className: 'mono small', cell: (l) => l.transactionId },
];

type EventRow = OrderDetail['events'][number];
const eventColumns: Column<EventRow>[] = [
  { header: 'When', className: 'nowrap', cell: (e) => formatDate(e.createdAt) },
  { header: 'Event', className: 'mono small', cell: (e) => e.eventType },
  {
    header: 'Webhook deliveries',
    cell: (e) =>
      e.deliveries.length === 0
        ? 'none (no endpoint subscribed)'
        : e.deliveries.map((d) => (
            <div key={d.endpointId} className="small">
              <WebhooksLink>{d.status}</WebhooksLink> after {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
              {d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : ''}
              {d.lastError ? ` · ${d.lastError}` : ''}
            </div>
          )),
  },
  { header: 'Event id', className: 'mono small', cell: (e) => e.eventId },
];

const TAKEN_BACK = { refund: 'refunded', chargeback: 'charged back', return: 'returned' } as const;

function WebhooksLink({ children }: { children: ReactNode }) {
  const link = useEnvironmentLink();
  return <Link to={link('/webhooks')}>{children}</Link>;
}

/** Why the order is not shown: absent, or in the company's other environment (a link shared across). */
function NotHere({ id, error }: { id: string; error: unknown }) {
  const other = error instanceof ConsoleError ? error.body.details?.otherEnvironment : undefined;
  if (other !== 'sandbox' && other !== 'production') return <ErrorNotice error={error} />;
  return (
    <>
      <PageHeader
        title={`Order ${id}`}
        description="Orders are shown in the environment they were placed in."
      />
      <div className="notice" role="status">
        <strong>This order is in {other}, not in the environment you are viewing.</strong>{' '}
        <Link to={inEnvironment(`/orders/${encodeURIComponent(id)}`, other as Environment)}>
          Open it in {other}
        </Link>
        .
      </div>
    </>
  );
}

function Facts({ detail }: { detail: OrderDetail }) {
  const { order, hold, reservation, bulkLine } = detail;
  const reveal = order.deferredReveal
    ? order.revealedAt
      ? `revealed ${formatDate(order.revealedAt)}`
      : 'deferred, not revealed yet'
    : 'keys delivered with the order';
  return (
    <dl className="facts card">
      <dt>Order</dt>
      <dd className="mono">{order.readableId}</dd>
      <dt>Placed</dt>
      <dd>{formatDate(order.createdAt)}</dd>
      <dt>Kind</dt>
      <dd>
        {order.kind}
        {bulkLine ? ' (bulk line)' : ''} · {order.delivery}
      </dd>
      <dt>SKU</dt>
      <dd className="mono">{order.skuCode}</dd>
      <dt>Quantity</dt>
      <dd>{order.quantity}</dd>
      <dt>State</dt>
      <dd>{stateOf(order, detail.afterSale)}</dd>
      <dt>Amount</dt>
      <dd>
        {formatMoney(totalOf(order), order.currencyCode)}
        {order.unitPriceCents !== null
          ? ` (${order.quantity} × ${formatMoney(order.unitPriceCents, order.currencyCode)})`
          : ''}
        {order.countryCode ? ` in ${order.countryCode}` : ''}
      </dd>
      <dt>Reveal</dt>
      <dd>{reveal}</dd>
      <dt>Hold</dt>
      <dd>{hold ? `${hold.id} · ${hold.status} · ${hold.quantity} units` : 'none'}</dd>
      <dt>Reservation</dt>
      <dd>
        {reservation
          ? `${reservation.id} · ${reservation.status} · ${reservation.quantity} units${reservation.extended ? ' · extended' : ''}`
          : 'none'}
      </dd>
    </dl>
  );
}

/** One order: its facts, keys by id, refunds and returns, sale lines and the events it emitted. */
export function OrderPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const [action, setAction] = useState<KeyAction | null>(null);
  const link = useEnvironmentLink();
  const detail = useOrder(id);
  const cancel = useCancelPreorder(id);
  const data = detail.data;
  if (!data)
    return detail.error ? (
      <NotHere id={id} error={detail.error} />
    ) : (
      <p aria-busy="true">Loading the order…</p>
    );
  const soldKeys = data.keys.filter((k) => k.state === 'sold').map((k) => k.id);
  const actions: [KeyAction, string, boolean][] = [
    ['refund', 'Refund keys', can(session, 'orders:refund')],
    ['chargeback', 'Chargeback', can(session, 'orders:refund')],
    ['return', 'Return keys', can(session, 'orders:manage')],
    ['replace', 'Replace a key', can(session, 'orders:manage')],
  ];
  return (
    <>
      <PageHeader
        title={`Order ${data.order.orderReference}`}
        description="Keys are listed by id; their codes are never shown here."
        actions={
          data.order.delivery === 'preorder' && can(session, 'orders:manage') ? (
            <button type="button" className="button danger" onClick={() => cancel.mutate()}>
              Cancel pre-order
            </button>
          ) : null
        }
      />
      <p>
        <Link to={link('/orders')}>← All orders</Link>
      </p>
      <ErrorNotice error={cancel.error} />
      <Facts detail={data} />
      <section className="card" aria-labelledby="keys-title">
        <div className="card-head">
          <h2 id="keys-title">Keys</h2>
          <div className="row-actions">
            {actions
              .filter(([, , allowed]) => allowed && soldKeys.length > 0)
              .map(([value, label]) => (
                <button
                  key={value}
                  type="button"
                  className="button secondary small"
                  onClick={() => setAction(value)}
                >
                  {label}
                </button>
              ))}
          </div>
        </div>
        {data.keys.length === 0 ? (
          <p className="muted">No keys (a keyless, pre-order or failed order).</p>
        ) : (
          <ul className="stack-list">
            {data.keys.map((k) => (
              <li key={k.id}>
                <span className="mono small">{k.id}</span> <span className="pill">{k.state}</span>
                {k.takenBackBy ? ` ${TAKEN_BACK[k.takenBackBy]}` : ''}
                {k.replacedBy ? (
                  <>
                    {' '}
                    replaced by <span className="mono small">{k.replacedBy}</span>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <h2>Refunds and returns</h2>
      <DataTable
        columns={refundColumns}
        rows={data.refunds}
        rowKey={(r) => r.refundId}
        loaded
        empty="None."
        caption="Refunds and returns"
        stackOnPhones
      />
      {data.saleLines ? (
        <>
          <h2>Sale lines</h2>
          <DataTable
            columns={saleColumns}
            rows={data.saleLines}
            rowKey={(l) => l.transactionId}
            loaded
            empty="None."
            caption="Sale lines"
            stackOnPhones
          />
        </>
      ) : null}
      <h2>Events</h2>
      <DataTable
        columns={eventColumns}
        rows={data.events}
        rowKey={(e) => e.eventId}
        loaded
        empty="No event names this order."
        caption="Events"
        stackOnPhones
      />
      {action ? (
        <KeyActionDialog
          action={action}
          order={data.order}
          keyIds={soldKeys}
          onClose={() => setAction(null)}
        />
      ) : null}
    </>
  );
}
