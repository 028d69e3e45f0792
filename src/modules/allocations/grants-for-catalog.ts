import type { AppContext } from '../../context.js';
import type { CatalogGrants } from '../catalog/index.js';
import { stockForSkus } from './availability.service.js';
import { refreshForPublisher } from './sellability.service.js';

/** Allocations' side of `CatalogGrants`, for the context of `contextOf()` (made after it). */
export function grantsForCatalog(contextOf: () => AppContext): CatalogGrants {
  return {
    refreshForPublisher: (trx, publisherId, environment, skuIds) =>
      refreshForPublisher(contextOf(), trx, publisherId, environment, skuIds),
    stockForSkus: (scope, skuIds) => stockForSkus(contextOf(), scope, skuIds),
  };
}
