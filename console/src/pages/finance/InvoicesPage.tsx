import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { formatDate, formatMoney, formatMonth } from '../../format';
import { FinanceNav } from './FinanceNav';
import type { Invoice } from './types';

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
  const session = useSession();
  const invoices = useQuery({
    queryKey: ['invoices', session.environment],
    queryFn: () => call<{ data: Invoice[] }>('GET', '/finance/invoices'),
  });
  return (
    <>
      <PageHeader title="Finance" description="Invoices of closed months, newest first." />
      <FinanceNav />
      <ErrorNotice error={invoices.error} />
      <DataTable
        columns={columns}
        rows={invoices.data?.data ?? []}
        rowKey={(i) => i.invoiceId}
        loaded={Boolean(invoices.data)}
        empty="No closed month yet."
        caption="Invoices"
        stackOnPhones
      />
    </>
  );
}
