import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { type ApiError, fail, isApiError } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './claims.repo.js';
import type { PoolRow } from './inventory.repo.js';
import { choosePools, poolsFor, stockOf } from './pools.service.js';
import { syntheticKeyText } from './synthetic-keys.js';

export interface ClaimRequest {
  allocationId: string;
  skuId: string;
  skuCode: string;
  environment: string;
  orderId: string;
  quantity: number;
  /** The SKU's pools as the caller read them under the current catalog version; read here if absent. */
  pools?: readonly PoolRow[];
}

export type ClaimedKey = repo.ClaimedKey;
/** The claim's condition on `game_keys.id` (in a statement of the caller's). */
export const claimedIds = repo.claimedIds;

function secretsOf(ctx: AppContext) {
  if (!ctx.secrets) throw fail('INTERNAL_ERROR', 'No master key is configured: keys cannot be sealed.');
  return ctx.secrets;
}

/** Replenished sandbox pools hand out synthetic keys, minted (sealed like any key) at claim time. */
async function mint(ctx: AppContext, trx: Executor, pool: PoolRow, request: ClaimRequest, count: number) {
  const secrets = secretsOf(ctx);
  const now = ctx.clock.now();
  const rows = Array.from({ length: count }, () => {
    const text = syntheticKeyText(request.skuCode);
    return {
      id: uuidv7(now),
      pool_id: pool.id,
      sku_id: request.skuId,
      ciphertext: secrets.seal(text),
      fingerprint: secrets.fingerprint(text),
      state: 'sold' as const,
      order_id: request.orderId,
      sold_at: now,
      created_at: now,
    };
  });
  await repo.insertSoldKeys(trx, rows);
  return rows.map((r) => ({ id: r.id, ciphertext: r.ciphertext }));
}

/**
 * Claims exactly `quantity` keys for an order inside the caller's transaction: the allocation's
 * dedicated pool first, then the SKU's shared pool. All or nothing: short of keys it throws
 * NO_AVAILABLE_KEYS and the transaction's rollback returns every key it took.
 */
export async function claimKeys(
  ctx: AppContext,
  trx: Executor,
  request: ClaimRequest,
): Promise<ClaimedKey[]> {
  const claimed = await claimKeysOrShort(ctx, trx, request);
  if (isApiError(claimed)) throw claimed;
  return claimed;
}

/**
 * `claimKeys`, short of keys answering the refusal NO_AVAILABLE_KEYS as a value: the caller then
 * rolls its transaction back, which returns every key taken (`rollBackWith`, db/guarded-writes.ts).
 */
export async function claimKeysOrShort(
  ctx: AppContext,
  trx: Executor,
  request: ClaimRequest,
): Promise<ClaimedKey[] | ApiError> {
  const { dedicated, shared } = request.pools
    ? choosePools(request.pools, request.environment, request.allocationId)
    : await poolsFor(trx, request.skuId, request.environment, request.allocationId);
  const now = ctx.clock.now();
  const claimed: ClaimedKey[] = [];
  for (const pool of [dedicated, shared]) {
    const missing = request.quantity - claimed.length;
    if (!pool || missing === 0) continue;
    if (pool.replenish_mode === 'none') {
      claimed.push(...(await repo.claimFromPool(trx, pool.id, missing, request.orderId, now)));
    } else {
      const count =
        pool.replenish_mode === 'pinned' ? Math.min(missing, pool.pinned_available ?? 0) : missing;
      claimed.push(...(await mint(ctx, trx, pool, request, count)));
    }
  }
  if (claimed.length < request.quantity) {
    return fail(
      'NO_AVAILABLE_KEYS',
      `Only ${claimed.length} of ${request.quantity} keys are available; none were pulled.`,
      {
        skuCode: request.skuCode,
        requested: request.quantity,
        available: claimed.length,
      },
    );
  }
  return claimed;
}

/**
 * Keys the allocation's pools can hand out, at most `n` (replenished pools give n), each pool's
 * as `stockOf` reads it: a finite pool's is the stock the database keeps beside its keys, a read
 * of a few rows however large the pool (docs/seller-reads.md, "Availability in constant time").
 */
export async function stockUpTo(
  ex: Executor,
  skuId: string,
  environment: string,
  allocationId: string,
  n: number,
): Promise<number> {
  const { dedicated, shared } = await poolsFor(ex, skuId, environment, allocationId);
  let stock = 0;
  for (const pool of [dedicated, shared]) {
    if (stock >= n) break;
    const own = await stockOf(ex, pool);
    if (own === null) return n;
    stock += own;
  }
  return Math.min(stock, n);
}

/** Plaintext of claimed or stored keys; a key that does not open fails the whole use case. */
export function openKeys(ctx: AppContext, keys: readonly { ciphertext: string }[]): string[] {
  const secrets = secretsOf(ctx);
  try {
    return keys.map((k) => secrets.open(k.ciphertext));
  } catch {
    throw fail('INTERNAL_ERROR', 'A key could not be decrypted; nothing was pulled.', {
      reason: 'key_decrypt_failed',
    });
  }
}

export const keysOfOrder = repo.keysOfOrder;
export const keyIdsOfOrders = repo.keyIdsOfOrders;
