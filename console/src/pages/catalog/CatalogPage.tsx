import { Link, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/DataTable';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { CatalogNav } from './CatalogNav';
import type { ProductRow } from './types';
import { useCursorList } from './useCursorList';

const FILTERS = ['q', 'status', 'partner', 'locale'] as const;

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
  { header: 'Status', cell: (row) => <span className="pill">{row.status}</span> },
  { header: 'Launch', cell: (row) => row.launchPhase?.replaceAll('_', ' ') ?? '—' },
  { header: 'Platforms', cell: (row) => (row.platforms ?? []).map((p) => p.code).join(', ') || '—' },
  { header: 'Updated', className: 'nowrap', cell: (row) => formatDate(row.updatedAt) },
];

/** The products publishers share with the company: search, status and publisher filters, locale. */
export function CatalogPage() {
  const [params, setParams] = useSearchParams();
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name)?.trim();
    if (value) query.set(name, value);
  }
  const { list, rows, more } = useCursorList<ProductRow>('products', '/products', query);
  return (
    <>
      <PageHeader title="Catalog" description="Products the publishers share with your company." />
      <CatalogNav />
      <form
        className="card filters"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const next = new URLSearchParams();
          for (const name of FILTERS) {
            const value = String(form.get(name) ?? '').trim();
            if (value) next.set(name, value);
          }
          setParams(next);
        }}
      >
        <label className="field grow">
          <span>Search</span>
          <input name="q" defaultValue={params.get('q') ?? ''} placeholder="Name or slug" />
        </label>
        <label className="field">
          <span>Status</span>
          <select name="status" defaultValue={params.get('status') ?? ''}>
            <option value="">any</option>
            <option value="active">active</option>
            <option value="draft">draft</option>
            <option value="discontinued">discontinued</option>
          </select>
        </label>
        <label className="field">
          <span>Publisher id</span>
          <input name="partner" defaultValue={params.get('partner') ?? ''} />
        </label>
        <label className="field">
          <span>Locale</span>
          <input name="locale" defaultValue={params.get('locale') ?? ''} placeholder="de-DE" />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary">
            Search
          </button>
          <button type="button" className="button ghost" onClick={() => setParams(new URLSearchParams())}>
            Clear
          </button>
        </div>
      </form>
      <ErrorNotice error={list.error} />
      <DataTable
        columns={columns(query.get('locale'))}
        rows={rows}
        rowKey={(row) => row.id}
        loaded={Boolean(list.data)}
        empty="No product matches."
        caption="Products"
        more={more('More products')}
      />
    </>
  );
}
