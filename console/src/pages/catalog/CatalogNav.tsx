import { SectionTabs } from '../../components/SectionTabs';

const TABS = [
  { to: '/catalog', label: 'Products', end: true, also: ['/catalog/products', '/catalog/skus'] },
  { to: '/catalog/allocations', label: 'Allocations' },
  { to: '/catalog/partners', label: 'Partners' },
];

/** The catalog section's tabs: products (with a product's and a SKU's own pages), allocations, partners. */
export function CatalogNav() {
  return <SectionTabs label="Catalog" tabs={TABS} />;
}
