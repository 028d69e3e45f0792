import { Link, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { type Filter, FilterForm, queryOf } from '../../components/FilterForm';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type ProductRow, useProducts } from '../../data/catalog/queries';
import { formatDate, formatMoney } from '../../format';
import { CatalogNav } from './CatalogNav';

const FILTERS: Filter[] = [
  { name: 'q', label: 'Search', placeholder: 'Name or slug', grow: true },
  { name: 'status', label: 'Status', options: ['active', 'draft', 'discontinued'] },
  { name: 'partner', label: 'Publisher id' },
  { name: 'locale', label: 'Locale', placeholder: 'de-DE' },
];

/** A platform as the publisher stored it: a code, or an object naming one. */
const platformName = (platform: unknown): string => {
  if (typeof platform === 'string') return platform;
  const code = (platform as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

const columns = (locale: string | null): Column<ProductRow>[] => [
  {
    header: 'Product',
    cell: (row) => (
      <Link className="strong" to={`/catalog/products/${row.id}${locale ? `?locale=${locale}` : ''}`}>
        {row.name}
      </Link>
    ),
  },
  { header: 'Publisher', cell: (row) => row.publisherCompanyName ?? '—' },
  {
    header: 'SKUs',
    className: 'small',
    cell: (row) =>
      row.skuCodes && row.skuCodes.length > 0 ? (
        <ul className="stack-list">
          {row.skuCodes.map((code) => (
            <li key={code} className="mono nowrap">
              {code}
            </li>
          ))}
        </ul>
      ) : (
        '—'
      ),
  },
  {
    header: 'Price from',
    className: 'num nowrap',
    cell: (row) => formatMoney(row.listPriceFromCents, 'USD'),
  },
  { header: 'Status', cell: (row) => <span className="pill">{row.status}</span> },
  { header: 'Launch', cell: (row) => row.launchPhase?.replaceAll('_', ' ') ?? '—' },
  { header: 'Platforms', cell: (row) => row.platforms.map(platformName).join(', ') || '—' },
  { header: 'Updated', className: 'nowrap', cell: (row) => formatDate(row.updatedAt) },
];

/** The products publishers share with the company: search, status and publisher filters, locale. */
export function CatalogPage() {
  const [params] = useSearchParams();
  const query = queryOf(params, FILTERS);
  const products = useProducts(query);
  return (
    <>
      <PageHeader title="Catalog" description="Products the publishers share with your company." />
      <CatalogNav />
      <FilterForm filters={FILTERS} />
      <ErrorNotice error={products.error} />
      <DataTable
        columns={columns(query.get('locale'))}
        rows={products.rows}
        rowKey={(row) => row.id}
        loaded={products.loaded}
        empty="No product matches."
        caption="Products"
        more={products.more}
        stackOnPhones
      />
    </>
  );
}
