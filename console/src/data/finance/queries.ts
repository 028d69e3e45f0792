import { useMutation, useQuery } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, type Body, request } from '../api';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

export type StatementLine = Answer<'/finance/statements', 'get'>['data'][number];
export type Invoice = Answer<'/finance/invoices', 'get'>['data'][number];
export type ActivityEntry = RowOf<'/finance/activity'>;
export type SaleLine = RowOf<'/finance/api-sales'>;
export type ReportFilter = Body<'/finance/reports', 'post'>;

/** Sales per month and sale currency, from the month `from` (all months when empty). */
export function useStatements(from: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.finance.statements(environment, from),
    queryFn: async () =>
      (await request('get', '/finance/statements', { query: { from: from || undefined } })).data,
  });
}

/** The company's invoices, each with its statement lines. */
export function useInvoices() {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.finance.invoices(environment),
    queryFn: async () => (await request('get', '/finance/invoices')).data,
  });
}

/** The ledger entries of the environment, filtered as the page's form says. */
export function useActivity(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.finance.activity(environment, filter.toString()), '/finance/activity', {
    query: filter,
    moreLabel: 'Older entries',
  });
}

/** The API sale lines of the environment, filtered as the page's form says. */
export function useApiSales(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.finance.sales(environment, filter.toString()), '/finance/api-sales', {
    query: filter,
    moreLabel: 'Older lines',
  });
}

/** Starts a CSV report of the ledger with these filters; answers its id. */
export const useStartReport = () =>
  useMutation({ mutationFn: (body: ReportFilter) => request('post', '/finance/reports', { body }) });

/** A report job, polled while it is pending. */
export const useReport = (reportId: string | undefined) =>
  useQuery({
    queryKey: consoleKeys.finance.report(reportId ?? ''),
    enabled: Boolean(reportId),
    queryFn: async () =>
      (await request('get', '/finance/reports/{reportId}', { params: { reportId: reportId ?? '' } })).data,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1000 : false),
  });
