import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { FilterForm, queryOf } from '../../components/FilterForm';
import { formatMoney } from '../../components/money';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { useKeysetList } from '../../components/useKeysetList';
import { OrderReferenceLink } from '../orders/OrderReferenceLink';
import { FinanceNav } from './FinanceNav';
import type { ActivityEntry } from './types';

const FILTERS = [
  { name: 'kinds', label: 'Kinds', placeholder: 'sale,refund' },
  { name: 'orderReference', label: 'Order reference' },
  { name: 'promoId', label: 'Promotion id' },
  { name: 'counterparty', label: 'Counterparty id' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
] as const;

const columns: Column<ActivityEntry>[] = [
  { header: 'When', className: 'nowrap', cell: (e) => formatDate(e.createdAt) },
  { header: 'Kind', cell: (e) => e.kind },
  {
    header: 'Order reference',
    className: 'small',
    cell: (e) => <OrderReferenceLink reference={e.orderReference} />,
  },
  { header: 'SKU', className: 'mono small', cell: (e) => e.skuCode },
  { header: 'Quantity', className: 'num', cell: (e) => e.quantity },
  { header: 'Counterparty', cell: (e) => e.counterparty.name ?? e.counterparty.companyId },
  {
    header: 'Signed sale',
    className: 'num nowrap',
    cell: (e) => formatMoney(e.economics.signedSaleMinor, e.economics.currencyCode),
  },
];

interface Report {
  reportId: string;
  status: string;
  rows: number | null;
  downloadUrl: string | null;
  error: string | null;
}

/** The CSV export: the API's report job with the page's filters, polled until its file is ready. */
function CsvExport({ filters }: { filters: URLSearchParams }) {
  const start = useMutation({
    mutationFn: () => call<{ reportId: string }>('POST', '/finance/reports', Object.fromEntries(filters)),
  });
  const reportId = start.data?.reportId;
  const report = useQuery({
    queryKey: ['report', reportId],
    enabled: Boolean(reportId),
    queryFn: () => call<{ data: Report }>('GET', `/finance/reports/${reportId}`),
    refetchInterval: (query) => (query.state.data?.data.status === 'pending' ? 1000 : false),
  });
  const status = report.data?.data;
  return (
    <div className="card export-bar">
      <button
        type="button"
        className="button secondary"
        disabled={start.isPending}
        onClick={() => start.mutate()}
      >
        Export these entries as CSV
      </button>
      <span role="status" className="muted">
        {reportId && !status ? 'Preparing the report…' : null}
        {status?.status === 'pending' ? 'Preparing the report…' : null}
        {status?.status === 'failed' ? `The report failed: ${status.error}` : null}
      </span>
      {status?.downloadUrl ? (
        <a className="button primary" href={status.downloadUrl} download>
          Download CSV ({status.rows} rows, gzip)
        </a>
      ) : null}
      <ErrorNotice error={start.error ?? report.error} />
    </div>
  );
}

/** Settlement activity with its filters, as GET /activity. */
export function ActivityPage() {
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const activity = useKeysetList<ActivityEntry>('activity', '/finance/activity', query, 'Older entries');
  return (
    <>
      <PageHeader
        title="Finance"
        description="Activity: sales, refunds, chargebacks, pulls, reveals and replacements, newest first."
      />
      <FinanceNav />
      <FilterForm filters={FILTERS} />
      <CsvExport key={query.toString()} filters={query} />
      <ErrorNotice error={activity.error} />
      <DataTable
        columns={columns}
        rows={activity.rows}
        rowKey={(e) => e.entryId}
        loaded={activity.loaded}
        empty="No entry matches."
        caption="Activity"
        more={activity.more}
      />
    </>
  );
}
