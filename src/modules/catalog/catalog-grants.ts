import type { Executor } from '../../db/database.js';

/** A SKU's stock as one seller can draw on it (the numbers `GET /availability` gives). */
export interface SkuStock {
  available: number;
  allocationRemaining: number;
  inventoryAvailable: number;
}

/**
 * What catalog needs from the grants on its SKUs: sellability judged again after a catalog
 * change, and a seller's stock per SKU for `?expand=availability`. Allocations owns both and
 * depends on catalog, so catalog is given this (`AppContext.grants`, wired where the context is
 * made) instead of importing allocations.
 */
export interface CatalogGrants {
  /** After a change to a publisher's catalog: every connected seller, every given SKU (all when omitted). */
  refreshForPublisher(
    trx: Executor,
    publisherId: string,
    environment: string,
    skuIds?: readonly string[],
  ): Promise<void>;
  /** Stock of many SKUs at once for one seller, from a fixed number of queries. */
  stockForSkus(
    scope: { sellerId: string; environment: string },
    skuIds: readonly string[],
  ): Promise<Map<string, SkuStock>>;
}
