import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { call } from '../../api/client';
import { Chart } from '../../components/charts/Chart';
import { useSession } from '../../components/session';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { CatalogNav } from './CatalogNav';
import { blockerSentence } from './sentences';

interface Stock {
  availability: {
    skuCode: string;
    available: number;
    allocationRemaining: number;
    inventoryAvailable: number;
    sellable: boolean;
    readinessBlockers: string[];
    requestable: boolean;
  };
  history: { at: string; remaining: number; event: string }[];
}

/** One SKU's availability now and its allocation's remaining keys over time. */
export function StockPage() {
  const session = useSession();
  const { skuId = '' } = useParams();
  const stock = useQuery({
    queryKey: ['stock', session.environment, skuId],
    queryFn: () => call<{ data: Stock }>('GET', `/skus/${skuId}/stock`),
  });
  const data = stock.data?.data;
  const a = data?.availability;
  return (
    <>
      <PageHeader title={a ? `Stock of ${a.skuCode}` : 'Stock'} />
      <CatalogNav />
      <ErrorNotice error={stock.error} />
      {a && data ? (
        <>
          <section className="card">
            <p>
              {a.sellable
                ? `${a.available} keys can be sold now: ${a.allocationRemaining} left on your allocation, ${a.inventoryAvailable} in the publisher's stock.`
                : `Not sellable now. ${a.readinessBlockers.map(blockerSentence).join(' ')}`}
              {a.requestable ? ' The allocation is used up: request more on the Allocations page.' : ''}
            </p>
          </section>
          <section className="card">
            {data.history.length > 1 ? (
              <Chart
                title={`Keys left on the allocation of ${a.skuCode}`}
                kind="line"
                categories={data.history.map((point) => formatDate(point.at))}
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
