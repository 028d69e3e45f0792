import { Link, useParams, useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type ProductDetail, useProduct } from '../../data/catalog/queries';
import { formatDate, formatMoney } from '../../format';
import { CatalogNav } from './CatalogNav';

type Release = NonNullable<ProductDetail['releases']>[number];
interface ReleaseRow {
  release: Release;
  sku: Release['skus'][number] | null;
}

/** One product: its editions, releases with their SKUs, and the list price per country. */
export function ProductPage() {
  const session = useSession();
  const { productId = '' } = useParams();
  const locale = useSearchParams()[0].get('locale');
  const product = useProduct(productId, locale);
  const data = product.data;
  const releaseName = new Map(data?.releases?.map((r) => [r.id, r.name]));
  return (
    <>
      <PageHeader title={data?.name ?? 'Product'} />
      <CatalogNav />
      <ErrorNotice error={product.error} />
      {data ? (
        <>
          <section className="card">
            <h2>Editions</h2>
            <p>{(data.editions ?? []).map((e) => e.name).join(', ') || 'No editions.'}</p>
          </section>
          <h2>Releases and SKUs</h2>
          <DataTable
            caption="Releases"
            rows={(data.releases ?? []).flatMap((release) =>
              release.skus.length
                ? release.skus.map((sku): ReleaseRow => ({ release, sku }))
                : [{ release, sku: null }],
            )}
            rowKey={(row) => `${row.release.id}:${row.sku?.id ?? ''}`}
            loaded
            empty="No releases."
            columns={[
              { header: 'Release', cell: (row) => row.release.name },
              {
                header: 'State',
                cell: (row) => row.release.state + (row.release.delisted ? ' (delisted)' : ''),
              },
              {
                header: 'Release date',
                className: 'nowrap',
                cell: (row) => formatDate(row.release.releaseDate),
              },
              {
                header: 'SKU',
                className: 'mono',
                cell: (row) =>
                  row.sku ? <Link to={`/catalog/skus/${row.sku.id}`}>{row.sku.code}</Link> : '—',
              },
              { header: 'Platform', cell: (row) => row.sku?.platform ?? '—' },
            ]}
          />
          <h2>Prices per country</h2>
          <DataTable
            caption="Prices per country"
            rows={data.pricing ?? []}
            rowKey={(row) => `${row.releaseId}:${row.countryCode}`}
            loaded
            empty="No country has a price yet."
            columns={[
              { header: 'Release', cell: (row) => releaseName.get(row.releaseId) ?? row.releaseId },
              { header: 'Country', cell: (row) => row.countryCode },
              {
                header: 'List price',
                className: 'num',
                cell: (row) => formatMoney(row.listPriceCents, row.currencyCode),
              },
              {
                header: 'Suggested retail',
                className: 'num',
                cell: (row) =>
                  row.srpMinCents !== null && row.srpMaxCents !== null
                    ? `${formatMoney(row.srpMinCents, row.currencyCode)} – ${formatMoney(row.srpMaxCents, row.currencyCode)}`
                    : '—',
              },
            ]}
          />
        </>
      ) : null}
    </>
  );
}
