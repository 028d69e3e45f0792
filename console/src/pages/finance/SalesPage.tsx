import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { formatMoney } from '../../components/money';
import { useSession } from '../../components/session';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import type { Page, SaleLine } from '../orders/types';
import { FinanceNav } from './FinanceNav';
import { FilterForm, queryOf } from './filters';

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
    cell: (l) => (
      <Link className="mono" to={`/orders?orderReference=${encodeURIComponent(l.orderReference)}`}>
        {l.orderReference}
      </Link>
    ),
  },
  { header: 'SKU', className: 'mono small', cell: (l) => l.skuCode },
  { header: 'Quantity', className: 'num', cell: (l) => l.quantity },
  { header: 'Sale', className: 'num nowrap', cell: (l) => formatMoney(l.salePriceCents, l.currencyCode) },
  {
    header: 'Wholesale',
    className: 'num nowrap',
    cell: (l) => formatMoney(l.wholesaleCents, l.wholesaleCurrencyCode),
  },
];

/** Sale lines and their reversals, as GET /finance/api-sales. */
export function SalesPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const sales = useInfiniteQuery({
    queryKey: ['api-sales', session.environment, query.toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(query);
      if (pageParam) page.set('cursor', pageParam);
      return call<Page<SaleLine>>('GET', `/finance/api-sales?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
  });
  return (
    <>
      <PageHeader title="Finance" description="API sales: every sale line and reversal, newest first." />
      <FinanceNav />
      <FilterForm filters={FILTERS} />
      <ErrorNotice error={sales.error} />
      <DataTable
        columns={columns}
        rows={sales.data?.pages.flatMap((p) => p.data) ?? []}
        rowKey={(l) => l.transactionId}
        loaded={Boolean(sales.data)}
        empty="No sale line matches."
        caption="API sales"
        more={{
          label: 'Older lines',
          hasMore: sales.hasNextPage,
          loading: sales.isFetchingNextPage,
          onMore: () => sales.fetchNextPage(),
        }}
      />
    </>
  );
}
