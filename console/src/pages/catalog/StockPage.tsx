import { useParams } from 'react-router';
import { Chart } from '../../components/charts/Chart';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type AllocationFigures, useStock } from '../../data/catalog/queries';
import { countOf, formatTime } from '../../format';
import { CatalogNav } from './CatalogNav';
import { blockerSentence, nothingNowSentence } from './sentences';

/** One SKU's availability now (the figures the Allocations page shows) and its allocation over time. */
export function StockPage() {
  const { skuId = '' } = useParams();
  const stock = useStock(skuId);
  const data = stock.data;
  const a = data?.availability;
  const figures: AllocationFigures | null = a
    ? {
        allocationLeft: a.allocationRemaining,
        keysInStock: a.inventoryAvailable,
        sellableNow: a.available,
        ordersUse: null,
      }
    : null;
  return (
    <>
      <PageHeader title={a ? `Stock of ${a.skuCode}` : 'Stock'} />
      <CatalogNav />
      <ErrorNotice error={stock.error} />
      {a && data && figures ? (
        <>
          <section className="card" aria-labelledby="now-title">
            <h2 id="now-title">Now</h2>
            <dl className="facts">
              <dt>Allocation left</dt>
              <dd>{countOf(figures.allocationLeft, 'key')}</dd>
              <dt>Keys in stock</dt>
              <dd>{countOf(figures.keysInStock ?? 0, 'key')}</dd>
              <dt>Sellable now</dt>
              <dd>{countOf(figures.sellableNow, 'key')}</dd>
            </dl>
            <p>
              {!a.sellable
                ? `Not sellable: ${a.readinessBlockers.map(blockerSentence).join(' ')}`
                : figures.sellableNow === 0
                  ? nothingNowSentence(figures)
                  : `An order can take up to ${countOf(figures.sellableNow, 'key')} now.`}
              {a.requestable ? ' The allocation is used up: request more on the Allocations page.' : ''}
            </p>
            <p className="small muted">
              An order takes keys only when every condition is met and both the allocation and the stock have
              them: sellable now is the smaller of the two, less keys promised to checkout holds and
              pre-orders.
            </p>
          </section>
          <section className="card">
            {data.history.length > 1 ? (
              <Chart
                title={`Keys left on the allocation of ${a.skuCode}`}
                kind="line"
                categories={data.history.map((point) => formatTime(point.at))}
                times={data.history.map((point) => Date.parse(point.at))}
                series={[{ name: 'Keys left', values: data.history.map((point) => point.remaining) }]}
                xLabel="Time"
                yLabel="Keys left"
              />
            ) : (
              <p className="muted">No change to this allocation has been recorded yet.</p>
            )}
            <p className="small muted">
              Each point is a recorded change of the allocation (a grant, sale, pull, top-up, pause or
              revoke); the last is now.
            </p>
          </section>
        </>
      ) : null}
    </>
  );
}
