import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { FilterForm, queryOf } from '../../components/FilterForm';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type ActivityEntry, useActivity, useReport, useStartReport } from '../../data/finance/queries';
import { countOf, formatDate, formatMoney, formatNumber } from '../../format';
import { OrderReferenceLink } from '../orders/OrderReferenceLink';
import { FinanceNav } from './FinanceNav';

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
  { header: 'Quantity', className: 'num', cell: (e) => formatNumber(e.quantity) },
  { header: 'Counterparty', cell: (e) => e.counterparty.name ?? e.counterparty.companyId },
  {
    header: 'Signed sale',
    className: 'num nowrap',
    cell: (e) => formatMoney(e.economics.signedSaleMinor, e.economics.currencyCode),
  },
];

/** The CSV export: the API's report job with the page's filters, polled until its file is ready. */
function CsvExport({ filters }: { filters: URLSearchParams }) {
  const start = useStartReport();
  const reportId = start.data?.reportId;
  const report = useReport(reportId);
  const status = report.data;
  return (
    <div className="card export-bar">
      <button
        type="button"
        className="button secondary"
        disabled={start.isPending}
        onClick={() => start.mutate(Object.fromEntries(filters))}
      >
        Export these entries as CSV
      </button>
      <span role="status" className="muted">
        {reportId && !status ? 'Preparing the report…' : null}
        {status?.status === 'pending' ? 'Preparing the report…' : null}
        {status?.status === 'failed' ? `The report failed: ${status.error}` : null}
      </span>
      {status?.downloadUrl ? (
        <>
          <a className="button primary" href={`/console/api/finance/reports/${status.reportId}/csv`} download>
            Download CSV ({countOf(status.rows ?? 0, 'row')})
          </a>
          <a className="button secondary" href={status.downloadUrl} download>
            Download compressed (.csv.gz)
          </a>
        </>
      ) : null}
      <ErrorNotice error={start.error ?? report.error} />
    </div>
  );
}

/** Settlement activity with its filters, as GET /activity. */
export function ActivityPage() {
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const activity = useActivity(query);
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
        stackOnPhones
        more={activity.more}
      />
    </>
  );
}
