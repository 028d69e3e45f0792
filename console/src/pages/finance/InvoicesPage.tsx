import { type Column, DataTable } from '../../components/DataTable';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type Invoice, useInvoices } from '../../data/finance/queries';
import { formatDate, formatMoney, formatMonth } from '../../format';
import { FinanceNav } from './FinanceNav';

const columns: Column<Invoice>[] = [
  { header: 'Month', className: 'nowrap strong', cell: (i) => formatMonth(i.period) },
  { header: 'Issued', className: 'nowrap', cell: (i) => formatDate(i.createdAt) },
  {
    header: 'Net sales',
    cell: (i) => i.lines.map((l) => formatMoney(l.netSalesCents, l.currencyCode)).join(', ') || '—',
  },
  {
    header: 'Wholesale owed',
    cell: (i) =>
      i.lines
        .flatMap((l) => l.wholesaleOwed)
        .map((w) => formatMoney(w.amountCents, w.currencyCode))
        .join(', ') || '—',
  },
  { header: 'Invoice id', cell: (i) => <span className="mono small id-text">{i.invoiceId}</span> },
];

/** Invoices of closed months: each the frozen statement of its month. */
export function InvoicesPage() {
  const invoices = useInvoices();
  return (
    <>
      <PageHeader title="Finance" description="Invoices of closed months, newest first." />
      <FinanceNav />
      <ErrorNotice error={invoices.error} />
      <DataTable
        columns={columns}
        rows={invoices.data ?? []}
        rowKey={(i) => i.invoiceId}
        loaded={Boolean(invoices.data)}
        empty="No closed month yet."
        caption="Invoices"
        stackOnPhones
      />
    </>
  );
}
