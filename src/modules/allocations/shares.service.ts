import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { changeSellerAccess, requireProduct, requireSku } from '../catalog/index.js';
import {
  type CatalogShareMode,
  requireConnection,
  updateConnection as writeConnection,
} from '../partners/index.js';
import * as repo from './allocations.repo.js';
import { publisherSkuIds, skuGateRows } from './sellability.repo.js';
import { refreshSellability } from './sellability.service.js';

/**
 * Shares or unshares one SKU with the seller of a connection. Sellers see `added` / `removed`
 * when catalog access to the product starts or ends, or `updated` (availability) when whole
 * catalog sharing keeps the product visible; sellability flips are announced.
 */
export async function setSkuShare(
  ctx: AppContext,
  trx: Executor,
  connectionId: string,
  skuId: string,
  active: boolean,
) {
  const { connection, product } = await requireSkuOfConnection(trx, connectionId, skuId);
  const sellerId = connection.seller_company_id;
  const now = ctx.clock.now();
  const access = {
    sellerId,
    publisherId: connection.publisher_company_id,
    environment: connection.environment,
  };
  await changeSellerAccess(ctx, trx, access, [product.id], async () => {
    const existing = await repo.findShare(trx, sellerId, skuId);
    if (existing) await repo.setShareActive(trx, existing.id, active, now);
    else if (active) {
      await repo.insertShare(trx, {
        id: uuidv7(now),
        connection_id: connection.id,
        seller_company_id: sellerId,
        publisher_company_id: connection.publisher_company_id,
        environment: connection.environment,
        sku_id: skuId,
        created_at: now,
        updated_at: now,
      });
    }
  });
  await refreshSellability(ctx, trx, sellerId, connection.environment, [skuId]);
  return { connectionId, skuId, active };
}

/** A SKU of the connection's publisher catalog, in the connection's environment, or a refusal. */
export async function requireSkuOfConnection(trx: Executor, connectionId: string, skuId: string) {
  const connection = await requireConnection(trx, connectionId);
  const sku = await requireSku(trx, skuId);
  const product = await requireProduct(trx, sku.product_id);
  if (
    product.publisher_company_id !== connection.publisher_company_id ||
    product.environment !== connection.environment
  ) {
    throw fail('VALIDATION_FAILED', "The SKU is not in this connection's publisher catalog.");
  }
  return { connection, sku, product };
}

export interface ConnectionPatch {
  catalogShareMode?: CatalogShareMode;
  sharesSuspended?: boolean;
  invoicingEnabled?: boolean;
  selfBilling?: boolean;
}

/**
 * Edits a connection; share mode and suspension change what the seller sees and can sell.
 * Suspending or resuming shares flips the share gate of every shared SKU, so products that stay
 * visible (whole-catalog sharing) record `updated` (availability); a share-mode change alone
 * only changes visibility (`added` / `removed`), never a sellability gate.
 */
export async function updateConnection(
  ctx: AppContext,
  trx: Executor,
  connectionId: string,
  patch: ConnectionPatch,
) {
  const connection = await requireConnection(trx, connectionId);
  const sellerId = connection.seller_company_id;
  const access = {
    sellerId,
    publisherId: connection.publisher_company_id,
    environment: connection.environment,
  };
  const skuIds = (await publisherSkuIds(trx, connection.publisher_company_id, connection.environment)).map(
    (r) => r.id,
  );
  const suspensionFlips =
    patch.sharesSuspended !== undefined && patch.sharesSuspended !== (connection.shares_suspended === 1);
  const touched = suspensionFlips
    ? await sharedProductIds(trx, sellerId, connection.environment, skuIds)
    : [];
  await changeSellerAccess(ctx, trx, access, touched, () =>
    writeConnection(trx, connectionId, {
      ...(patch.catalogShareMode !== undefined ? { catalog_share_mode: patch.catalogShareMode } : {}),
      ...(patch.sharesSuspended !== undefined ? { shares_suspended: patch.sharesSuspended ? 1 : 0 } : {}),
      ...(patch.invoicingEnabled !== undefined ? { invoicing_enabled: patch.invoicingEnabled ? 1 : 0 } : {}),
      ...(patch.selfBilling !== undefined ? { self_billing: patch.selfBilling ? 1 : 0 } : {}),
      updated_at: ctx.clock.now(),
    }),
  );
  await refreshSellability(ctx, trx, sellerId, connection.environment, skuIds);
  return requireConnection(trx, connectionId);
}

/** Products with at least one of these SKUs actively shared with the seller. */
async function sharedProductIds(
  trx: Executor,
  sellerId: string,
  environment: string,
  skuIds: readonly string[],
): Promise<string[]> {
  if (skuIds.length === 0) return [];
  const rows = await skuGateRows(trx, sellerId, environment, skuIds);
  return [...new Set(rows.filter((r) => r.share_id !== null).map((r) => r.product_id))];
}
