import { useState } from 'react';
import { Chart } from '../../components/charts/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type StatementLine, useStatements } from '../../data/finance/queries';
import { formatMoney, formatMonth, formatNumber } from '../../format';
import { FinanceNav } from './FinanceNav';

const columnsOf = (currency: string): Column<StatementLine>[] => [
  { header: 'Month', className: 'nowrap', cell: (l) => formatMonth(l.period) },
  { header: 'Gross', className: 'num nowrap', cell: (l) => formatMoney(l.grossSalesCents, currency) },
  { header: 'Refunded', className: 'num nowrap', cell: (l) => formatMoney(l.refundedCents, currency) },
  { header: 'Reinstated', className: 'num nowrap', cell: (l) => formatMoney(l.reinstatedCents, currency) },
  { header: 'Net', className: 'num nowrap strong', cell: (l) => formatMoney(l.netSalesCents, currency) },
  {
    header: 'Keys sold / reversed',
    className: 'num nowrap',
    cell: (l) => `${formatNumber(l.keysSold)} / ${formatNumber(l.keysReversed)}`,
  },
  {
    header: 'Wholesale owed',
    className: 'nowrap',
    cell: (l) => l.wholesaleOwed.map((w) => formatMoney(w.amountCents, w.currencyCode)).join(', ') || '—',
  },
  {
    header: 'Invoice',
    cell: (l) =>
      l.invoiceId ? (
        <span className="mono small id-text">{l.invoiceId}</span>
      ) : (
        <span className="muted">open month</span>
      ),
  },
];

/** Per month and sale currency: gross, refunded, reinstated and net sales, as GET /finance/statements. */
export function StatementsPage() {
  const [from, setFrom] = useState('');
  const statements = useStatements(from);
  const lines = statements.data ?? [];
  const currencies = [...new Set(lines.map((l) => l.currencyCode))].sort();
  return (
    <>
      <PageHeader
        title="Finance"
        description="Statements per UTC month and sale currency; the figures are the API's own."
      />
      <FinanceNav />
      <form className="card filters" onSubmit={(event) => event.preventDefault()}>
        <label className="field">
          <span>From month</span>
          <input type="month" value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
      </form>
      <ErrorNotice error={statements.error} />
      {statements.data && lines.length === 0 ? <p className="muted">No sales in these months.</p> : null}
      {currencies.map((currency) => {
        const rows = lines
          .filter((l) => l.currencyCode === currency)
          .sort((a, b) => a.period.localeCompare(b.period));
        return (
          <section key={currency} className="card" aria-labelledby={`statement-${currency}`}>
            <h2 id={`statement-${currency}`}>Sales in {currency}</h2>
            <Chart
              title={`Gross, refunded, reinstated and net sales in ${currency} per month`}
              categories={rows.map((r) => formatMonth(r.period))}
              series={[
                { name: 'Gross', values: rows.map((r) => r.grossSalesCents) },
                { name: 'Refunded', values: rows.map((r) => r.refundedCents) },
                { name: 'Reinstated', values: rows.map((r) => r.reinstatedCents) },
                { name: 'Net', values: rows.map((r) => r.netSalesCents) },
              ]}
              xLabel="Month"
              yLabel={currency}
              formatValue={(cents) => formatMoney(cents, currency)}
            />
            <DataTable
              columns={columnsOf(currency)}
              rows={[...rows].reverse()}
              rowKey={(r) => `${r.period}-${r.currencyCode}`}
              loaded
              empty="No months."
              caption={`Statement lines in ${currency}`}
              stackOnPhones
            />
          </section>
        );
      })}
    </>
  );
}
