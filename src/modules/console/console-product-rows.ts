import type { AppContext } from '../../context.js';
import { skusOfProducts } from '../catalog/index.js';
import { companyNames } from '../companies/index.js';

/**
 * The catalog page's rows: each product of GET /products with what a seller scans a list for,
 * its publisher's name and its SKU codes (the price is the list's own `listPriceFromCents`).
 */
export async function withPublisherAndSkus<Row extends { id: string; publisherCompanyId: string }>(
  ctx: AppContext,
  rows: Row[],
) {
  const publisherIds = [...new Set(rows.map((row) => row.publisherCompanyId))];
  const [publishers, skus] = await Promise.all([
    companyNames(ctx.db, publisherIds),
    skusOfProducts(
      ctx.db,
      rows.map((row) => row.id),
    ),
  ]);
  const names = new Map(publishers.map((p) => [p.id, p.name]));
  return rows.map((row) => ({
    ...row,
    publisherCompanyName: names.get(row.publisherCompanyId) ?? null,
    skuCodes: skus.filter((sku) => sku.product_id === row.id && sku.delisted !== 1).map((sku) => sku.code),
  }));
}
