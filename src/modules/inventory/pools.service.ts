import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { requireProduct, requireSku } from '../catalog/index.js';
import * as repo from './inventory.repo.js';
import type { PoolKind, ReplenishMode } from './inventory.table.js';

export interface PoolInput {
  kind: PoolKind;
  /** For shared pools. */
  skuId?: string;
  /** For dedicated pools. */
  allocationId?: string;
  replenishMode?: ReplenishMode;
  pinnedAvailable?: number | null;
}

/**
 * Finds the grant a dedicated pool will serve, refusing an unknown one: the caller passes
 * allocations' `requireAllocation`, since allocations reads stock from this module.
 */
export type GrantOfPool = (
  ex: Executor,
  allocationId: string,
) => Promise<{ id: string; sku_id: string; environment: string }>;

export async function requirePool(ex: Executor, id: string): Promise<repo.PoolRow> {
  const pool = await repo.findPool(ex, id);
  if (!pool) throw fail('NOT_FOUND', `No key pool ${id}.`);
  return pool;
}

/**
 * A shared pool serves every allocation of its SKU; a dedicated pool serves one allocation.
 * There is one shared pool per SKU and environment, and one dedicated pool per allocation.
 */
export async function createPool(
  ctx: AppContext,
  trx: Executor,
  input: PoolInput,
  grantOf: GrantOfPool,
): Promise<repo.PoolRow> {
  let skuId: string;
  let environment: string;
  let allocationId: string | null = null;
  if (input.kind === 'dedicated') {
    if (!input.allocationId) throw fail('VALIDATION_FAILED', 'A dedicated pool needs allocationId.');
    const allocation = await grantOf(trx, input.allocationId);
    const existing = await repo.findDedicatedPool(trx, allocation.id);
    if (existing) return existing;
    ({ sku_id: skuId, environment } = allocation);
    allocationId = allocation.id;
  } else {
    if (!input.skuId) throw fail('VALIDATION_FAILED', 'A shared pool needs skuId.');
    const sku = await requireSku(trx, input.skuId);
    environment = (await requireProduct(trx, sku.product_id)).environment;
    skuId = sku.id;
    const existing = await repo.findSharedPool(trx, skuId, environment);
    if (existing) return existing;
  }
  const mode = input.replenishMode ?? 'none';
  if (mode === 'pinned' && (input.pinnedAvailable == null || input.pinnedAvailable < 0)) {
    throw fail('VALIDATION_FAILED', 'A pinned pool needs pinnedAvailable >= 0.');
  }
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await repo.insertPool(trx, {
    id,
    kind: input.kind,
    sku_id: skuId,
    allocation_id: allocationId,
    environment,
    replenish_mode: mode,
    pinned_available: mode === 'pinned' ? (input.pinnedAvailable ?? 0) : null,
    created_at: now,
  });
  return requirePool(trx, id);
}

export async function poolView(ex: Executor, pool: repo.PoolRow) {
  return {
    id: pool.id,
    kind: pool.kind,
    skuId: pool.sku_id,
    allocationId: pool.allocation_id,
    environment: pool.environment,
    replenishMode: pool.replenish_mode,
    pinnedAvailable: pool.pinned_available,
    availableKeys: await repo.countAvailable(ex, pool.id),
  };
}

/** Keys a pool can hand out now: `null` means unbounded (a replenished sandbox pool). */
export async function stockOf(ex: Executor, pool: repo.PoolRow | undefined): Promise<number | null> {
  if (!pool) return 0;
  if (pool.replenish_mode === 'infinite') return null;
  if (pool.replenish_mode === 'pinned') return pool.pinned_available ?? 0;
  return repo.countAvailable(ex, pool.id);
}

/** The dedicated pool of an allocation and the shared pool of its SKU. */
export async function poolsFor(
  ex: Executor,
  skuId: string,
  environment: string,
  allocationId: string | null,
) {
  return choosePools(
    await repo.findPoolsOfAllocation(ex, skuId, environment, allocationId),
    environment,
    allocationId,
  );
}

/** An allocation's pools among a SKU's: its dedicated pool, and the SKU's shared pool of the environment. */
export function choosePools(
  pools: readonly repo.PoolRow[],
  environment: string,
  allocationId: string | null,
) {
  return {
    dedicated: allocationId ? pools.find((p) => p.allocation_id === allocationId) : undefined,
    shared: pools.find((p) => p.kind === 'shared' && p.environment === environment),
  };
}

/** Every pool of a SKU (checkout reads them once per catalog version: key_pools bumps it). */
export const poolsOfSku = (ex: Executor, skuId: string) => repo.poolsOfSku(ex, skuId);
