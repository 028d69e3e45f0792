import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { can, useSession } from '../../components/session';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { useKeysetList } from '../../components/useKeysetList';
import { CatalogNav } from './CatalogNav';
import { RequestIncreaseDialog } from './RequestIncreaseDialog';
import { actionSentence, blockerSentence } from './sentences';
import type { Allocation, AllocationRequest } from './types';

function stockSentence(row: Allocation): string {
  if (row.remaining === 0) return 'Used up: nothing left to sell.';
  if (row.lowStockThreshold !== null && row.remaining <= row.lowStockThreshold)
    return `Low: ${row.remaining} left (alert at ${row.lowStockThreshold}).`;
  return `${row.remaining} of ${row.quantityLimit} left.`;
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
    { header: 'Stock', cell: (row) => stockSentence(row) },
    {
      header: 'Can you sell it?',
      cell: (row) =>
        row.sellable ? (
          <span className="pill pill-done">Sellable</span>
        ) : (
          <>
            <span className="pill pill-error">Not sellable</span>
            <ul className="plain-list">
              {row.readinessBlockers.map((code) => (
                <li key={code}>{blockerSentence(code)}</li>
              ))}
            </ul>
          </>
        ),
    },
    {
      header: 'What to do',
      cell: (row) => (
        <>
          {row.recommendedAction ? <p>{actionSentence(row.recommendedAction)}</p> : null}
          {row.hotDropState ? (
            <p className="small">
              Hot drop: {row.hotDropState.liveReservations} live reservations (
              {row.hotDropState.reservedUnits} keys), {row.hotDropState.slotsLeft} slots left.
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
  { header: 'Keys', className: 'num', cell: (row) => row.requestedQuantity },
  {
    header: 'Answer',
    cell: (row) =>
      `${row.status}${row.resolution?.reason ? ` (${row.resolution.reason.replaceAll('_', ' ')})` : ''}`,
  },
];

/** The company's allocations: can each SKU be sold, why not, and the action that fixes it. */
export function AllocationsPage() {
  const session = useSession();
  const allocations = useKeysetList<Allocation>(
    'allocations',
    '/allocations',
    new URLSearchParams(),
    'More allocations',
  );
  const requests = useKeysetList<AllocationRequest>(
    'allocations-requests',
    '/allocations/requests',
    new URLSearchParams(),
    'Older requests',
  );
  return (
    <>
      <PageHeader
        title="Allocations"
        description="How many keys each publisher lets you sell, whether each SKU is sellable now, and what to do when it is not."
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
