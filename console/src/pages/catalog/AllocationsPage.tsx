import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import {
  type Allocation,
  type AllocationRequest,
  useAllocationRequests,
  useAllocations,
} from '../../data/catalog/queries';
import { countOf, formatDate, formatNumber } from '../../format';
import { CatalogNav } from './CatalogNav';
import { RequestIncreaseDialog } from './RequestIncreaseDialog';
import { actionSentence, blockerSentence, nothingNowSentence } from './sentences';

function SellCell({ row }: { row: Allocation }) {
  if (!row.sellable) {
    return (
      <>
        <span className="pill pill-error">No</span>
        <ul className="plain-list">
          {row.readinessBlockers.map((code) => (
            <li key={code}>{blockerSentence(code)}</li>
          ))}
        </ul>
      </>
    );
  }
  if (row.figures.sellableNow === 0) {
    return (
      <>
        <span className="pill pill-error">Not now</span>
        <p className="small">{nothingNowSentence(row.figures)}</p>
      </>
    );
  }
  return <span className="pill pill-done">Yes</span>;
}

function AllocationLeft({ row }: { row: Allocation }) {
  const { allocationLeft } = row.figures;
  const low = row.lowStockThreshold !== null && allocationLeft > 0 && allocationLeft <= row.lowStockThreshold;
  return (
    <>
      {formatNumber(allocationLeft)}
      <div className="small muted">
        {formatNumber(row.quantityPulled)} of {formatNumber(row.quantityLimit)} pulled
        {row.status === 'active' ? '' : `, ${row.status}`}
        {low ? `; low (alert at ${formatNumber(row.lowStockThreshold ?? 0)})` : ''}
      </div>
    </>
  );
}

function columns(mayRequest: boolean): Column<Allocation>[] {
  return [
    {
      header: 'SKU',
      cell: (row) => (
        <>
          <Link className="mono" to={`/catalog/skus/${row.skuId}`}>
            {row.skuCode}
          </Link>
          <div className="small muted">
            {row.productName} · {row.publisherCompanyName}
          </div>
        </>
      ),
    },
    { header: 'Allocation left', className: 'num', cell: (row) => <AllocationLeft row={row} /> },
    {
      header: 'Keys in stock',
      className: 'num',
      cell: (row) => (row.figures.keysInStock === null ? '—' : formatNumber(row.figures.keysInStock)),
    },
    { header: 'Sellable now', className: 'num', cell: (row) => formatNumber(row.figures.sellableNow) },
    { header: 'Can you sell it?', cell: (row) => <SellCell row={row} /> },
    {
      header: 'What to do',
      cell: (row) => (
        <>
          {row.recommendedAction ? <p>{actionSentence(row.recommendedAction)}</p> : null}
          {row.hotDropState ? (
            <p className="small">
              Hot drop: {countOf(row.hotDropState.liveReservations, 'live reservation')} (
              {countOf(row.hotDropState.reservedUnits, 'key')}), {countOf(row.hotDropState.slotsLeft, 'slot')}{' '}
              left.
            </p>
          ) : null}
          {mayRequest ? (
            <RequestIncreaseDialog
              allocation={row}
              emphasis={row.remaining === 0 || row.recommendedAction === 'request_allocation'}
            />
          ) : null}
        </>
      ),
    },
  ];
}

const REQUEST_COLUMNS: Column<AllocationRequest>[] = [
  { header: 'Asked', className: 'nowrap', cell: (row) => formatDate(row.createdAt) },
  { header: 'SKU', className: 'mono', cell: (row) => row.skuCode },
  { header: 'Keys', className: 'num', cell: (row) => formatNumber(row.requestedQuantity) },
  {
    header: 'Answer',
    cell: (row) =>
      `${row.status}${row.resolution?.reason ? ` (${row.resolution.reason.replaceAll('_', ' ')})` : ''}`,
  },
];

/** The company's allocations: the figures of GET /availability for each, why nothing sells, and the fix. */
export function AllocationsPage() {
  const session = useSession();
  const allocations = useAllocations();
  const requests = useAllocationRequests();
  return (
    <>
      <PageHeader
        title="Allocations"
        description="For each SKU: what is left on your allocation, the keys in stock, how many an order could take now, and what to do when that is none."
      />
      <CatalogNav />
      <ErrorNotice error={allocations.error ?? requests.error} />
      <DataTable
        caption="Allocations"
        columns={columns(can(session, 'allocations:request'))}
        rows={allocations.rows}
        rowKey={(row) => row.id}
        loaded={allocations.loaded}
        empty="No publisher has granted you an allocation yet."
        more={allocations.more}
        stackOnPhones
      />
      <h2>Your increase requests</h2>
      <DataTable
        caption="Increase requests"
        columns={REQUEST_COLUMNS}
        rows={requests.rows}
        rowKey={(row) => row.id}
        loaded={requests.loaded}
        empty="No request yet."
        more={requests.more}
      />
    </>
  );
}
