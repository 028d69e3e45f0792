import { AllocationsPage } from './pages/catalog/AllocationsPage';
import { CatalogPage } from './pages/catalog/CatalogPage';
import { PartnersPage } from './pages/catalog/PartnersPage';
import { ProductPage } from './pages/catalog/ProductPage';
import { StockPage } from './pages/catalog/StockPage';
import { NoticesPage } from './pages/settings/NoticesPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { UsagePage } from './pages/usage/UsagePage';

/** The routes of the catalog, usage and settings pages, under the signed-in layout. */
export const catalogUsageSettingsRoutes = [
  { path: 'catalog', element: <CatalogPage /> },
  { path: 'catalog/products/:productId', element: <ProductPage /> },
  { path: 'catalog/allocations', element: <AllocationsPage /> },
  { path: 'catalog/partners', element: <PartnersPage /> },
  { path: 'catalog/skus/:skuId', element: <StockPage /> },
  { path: 'usage', element: <UsagePage /> },
  { path: 'settings', element: <SettingsPage /> },
  { path: 'settings/notices', element: <NoticesPage /> },
];
