import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { FilterForm, queryOf } from '../../components/FilterForm';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type SaleLine, useApiSales } from '../../data/finance/queries';
import { formatDate, formatMoney, formatNumber } from '../../format';
import { OrderReferenceLink } from '../orders/OrderReferenceLink';
import { FinanceNav } from './FinanceNav';

const FILTERS = [
  { name: 'orderReference', label: 'Order reference' },
  { name: 'entryType', label: 'Entry', options: ['sale', 'sale_reversal'] },
  { name: 'currencyCode', label: 'Currency', placeholder: 'EUR' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
] as const;

const columns: Column<SaleLine>[] = [
  { header: 'When', className: 'nowrap', cell: (l) => formatDate(l.createdAt) },
  { header: 'Entry', cell: (l) => l.entryType },
  {
    header: 'Order reference',
    cell: (l) => <OrderReferenceLink reference={l.orderReference} />,
  },
  { header: 'SKU', className: 'mono small', cell: (l) => l.skuCode },
  { header: 'Quantity', className: 'num', cell: (l) => formatNumber(l.quantity) },
  { header: 'Sale', className: 'num nowrap', cell: (l) => formatMoney(l.salePriceCents, l.currencyCode) },
  {
    header: 'Wholesale',
    className: 'num nowrap',
    cell: (l) => formatMoney(l.wholesaleCents, l.wholesaleCurrencyCode),
  },
];

/** Sale lines and their reversals, as GET /finance/api-sales. */
export function SalesPage() {
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const sales = useApiSales(query);
  return (
    <>
      <PageHeader title="Finance" description="API sales: every sale line and reversal, newest first." />
      <FinanceNav />
      <FilterForm filters={FILTERS} />
      <ErrorNotice error={sales.error} />
      <DataTable
        columns={columns}
        rows={sales.rows}
        rowKey={(l) => l.transactionId}
        loaded={sales.loaded}
        empty="No sale line matches."
        caption="API sales"
        stackOnPhones
        more={sales.more}
      />
    </>
  );
}
