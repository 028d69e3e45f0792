import type { AppContext } from '../../context.js';
import { availabilityOf } from '../allocations/index.js';
import { visibleProductIds } from '../catalog/index.js';

interface Row {
  id: string;
  skuId: string;
  status: string;
  remaining: number;
}

/** One allocation's figures, each named for what it counts. */
export interface AllocationFigures {
  /** Keys the grant still lets you pull (0 unless it is active): `allocationRemaining`. */
  allocationLeft: number;
  /** Keys in the publisher's pools for it (`inventoryAvailable`); null when not counted for this row. */
  keysInStock: number | null;
  /** What an all-or-nothing order could pull now (`available`): 0 unless sellable. */
  sellableNow: number;
  /** When orders on the SKU use another allocation, that one's readable id. */
  ordersUse: string | null;
}

/**
 * The figures of GET /availability for each row's SKU, from that route's own service, so the
 * Allocations page, the Stock page and the API cannot disagree. Only the allocation orders
 * use on a SKU carries its stock; another one on the same SKU (an older, revoked grant) shows
 * nothing to sell and names the one in use. A SKU gone from the catalog has no stock figure.
 */
export async function allocationFigures(
  ctx: AppContext,
  scope: { sellerId: string; environment: string },
  rows: readonly Row[],
): Promise<(row: Row) => AllocationFigures> {
  const visible = await visibleProductIds(ctx.db, scope.sellerId, scope.environment, ctx.clock.now());
  const skuIds = [...new Set(rows.map((row) => row.skuId))];
  const answers = await Promise.all(skuIds.map((id) => availabilityOf(ctx, scope, { id }, {}, visible)));
  const bySku = new Map(skuIds.map((id, i) => [id, answers[i] ?? null]));
  return (row) => {
    const availability = bySku.get(row.skuId) ?? null;
    if (availability?.allocationId === row.id) {
      return {
        allocationLeft: availability.allocationRemaining,
        keysInStock: availability.inventoryAvailable,
        sellableNow: availability.available,
        ordersUse: null,
      };
    }
    return {
      allocationLeft: row.status === 'active' ? row.remaining : 0,
      keysInStock: null,
      sellableNow: 0,
      ordersUse: availability?.allocationReadableId ?? null,
    };
  };
}
