import { Chart } from '../../components/charts/Chart';
import { DataTable } from '../../components/DataTable';
import { useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { useUsage } from '../../data/usage/queries';
import { countOf, formatDate, formatDay, formatNumber, formatPercent } from '../../format';

const CLASSES = ['catalog', 'orders', 'finance', 'webhooks', 'general'] as const;

/** API calls per route class per day, how close the company came to the sandbox limits, the busiest keys. */
export function UsagePage() {
  const _session = useSession();
  const usage = useUsage();
  const days = usage.data?.data ?? [];
  const meta = usage.data?.meta;
  return (
    <>
      <PageHeader
        title="Usage"
        description={
          meta
            ? `API calls from ${formatDay(meta.from)} to ${formatDay(meta.to)} (UTC days) in this environment.`
            : 'API calls in this environment.'
        }
      />
      <ErrorNotice error={usage.error} />
      <section className="card">
        <Chart
          title="API calls per route class per day"
          categories={days.map((day) => formatDay(day.date))}
          series={CLASSES.map((name) => ({ name, values: days.map((day) => day.apiCalls[name] ?? 0) }))}
          xLabel="Day (UTC)"
          yLabel="Calls"
        />
      </section>
      <h2>Rate limits</h2>
      <p>
        {meta?.rateLimits.rateLimited
          ? `Sandbox keys are limited per route class per minute: ${Object.entries(
              meta.rateLimits.perMinutePerRouteClass ?? {},
            )
              .map(([bucket, limit]) => `${formatNumber(limit)} ${bucket}`)
              .join(', ')}. The busiest minute of each class (from the request log, 14 days at most):`
          : 'Production keys are not rate limited. The busiest minute of each class (from the request log, 14 days at most):'}
      </p>
      <DataTable
        caption="Busiest minute per route class"
        stackOnPhones
        rows={meta?.peaks ?? []}
        rowKey={(row) => `${row.rateClass}:${row.bucket}`}
        loaded={Boolean(meta)}
        empty="No request in this span."
        columns={[
          { header: 'Route class', cell: (row) => row.rateClass },
          { header: 'Bucket', cell: (row) => row.bucket },
          { header: 'Busiest minute', className: 'num', cell: (row) => countOf(row.peakPerMinute, 'call') },
          { header: 'When', className: 'nowrap', cell: (row) => formatDate(row.peakMinute) },
          {
            header: 'Of the limit',
            className: 'num',
            cell: (row) =>
              row.limitPerMinute === null
                ? 'no limit'
                : `${formatPercent(row.peakPercentOfLimit ?? 0)} of ${formatNumber(row.limitPerMinute)}`,
          },
          { header: 'Refused (429)', className: 'num', cell: (row) => formatNumber(row.refused) },
        ]}
      />
      <h2>Busiest keys</h2>
      <DataTable
        caption="Busiest keys"
        stackOnPhones
        rows={meta?.busiestKeys ?? []}
        rowKey={(row) => row.keyId}
        loaded={Boolean(meta)}
        empty="No request in this span."
        columns={[
          { header: 'Key', cell: (row) => row.keyName },
          { header: 'Calls', className: 'num', cell: (row) => formatNumber(row.calls) },
          { header: 'Failed', className: 'num', cell: (row) => formatNumber(row.failed) },
          { header: 'Last call', className: 'nowrap', cell: (row) => formatDate(row.lastAt) },
        ]}
      />
    </>
  );
}
