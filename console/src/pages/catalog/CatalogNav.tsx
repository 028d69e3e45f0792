import { SectionTabs } from '../../components/SectionTabs';

const TABS = [
  { to: '/catalog', label: 'Products', end: true },
  { to: '/catalog/allocations', label: 'Allocations' },
  { to: '/catalog/partners', label: 'Partners' },
];

/** The catalog section's tabs: products, allocations, partners. */
export function CatalogNav() {
  return <SectionTabs label="Catalog" tabs={TABS} />;
}
