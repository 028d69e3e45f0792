/**
 * The catalog module's front door: products, editions, releases, SKUs, prices and visibility,
 * the change feed, snapshots and exports, and the product reads the console reuses.
 */
export { ActivationSchema, activationOf } from './activation.js';
export { findSkuByCode } from './catalog.repo.js';
export { registerCatalogRoutes } from './catalog.routes.js';
export { ProductDetailResponse, ProductListItem } from './catalog.schemas.js';
export { changeProduct, changeSellerAccess } from './catalog-changes.service.js';
export type { CatalogGrants, SkuStock } from './catalog-grants.js';
export { skusOfProducts } from './catalog-read.repo.js';
export { registerExportRoutes } from './exports.routes.js';
export { localeChain } from './locale.js';
export { setReferenceRate, setTerritoryPrice } from './prices.service.js';
export { type EffectivePrice, effectivePrices, type PriceRow, pricedCountriesByRelease } from './pricing.js';
export { priceRowsOfReleases } from './pricing.repo.js';
export { ProductListQuerystring, parseProductQuery } from './product-query.js';
export {
  archiveDueProducts,
  createEdition,
  createProduct,
  relateProducts,
  requireProduct,
  touchProduct,
  updateProduct,
} from './products.service.js';
export { listProducts, productDetail } from './products-read.service.js';
export { createRelease, createSku, requireSku, setSkuDelisted, updateRelease } from './releases.service.js';
export { registerSnapshotRoutes } from './snapshot.routes.js';
export {
  accessibleProducts,
  isProductVisible,
  productVisibleQuery,
  visibleProductIds,
} from './visibility.repo.js';
