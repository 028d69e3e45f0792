import type { AppContext } from '../../../context.js';
import { recordActivity } from '../../finance/index.js';
import { keysOfOrder, openKeys } from '../../inventory/index.js';
import { activityEntryOf } from '../orders/order-activity.js';
import { lockOrders } from '../orders/order-adjustments.service.js';
import { markRevealed } from '../orders/orders.repo.js';
import { tokenHash } from './links.js';
import * as repo from './redemption.repo.js';

export type RedemptionRecord = NonNullable<Awaited<ReturnType<typeof repo.recordByTokenHash>>>;

/** What the hosted page shows for a link: the record before the reveal, its keys after, or why not. */
export type PageState =
  | { kind: 'live'; record: RedemptionRecord }
  | { kind: 'revealed'; record: RedemptionRecord; keys: string[] }
  | { kind: 'unknown' | 'expired' | 'revoked' | 'unavailable' };

/** A token that cannot be ours is not looked up (the route also bounds its length). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

async function judge(ctx: AppContext, token: string): Promise<PageState> {
  if (!TOKEN_SHAPE.test(token)) return { kind: 'unknown' };
  const record = await repo.recordByTokenHash(ctx.db, tokenHash(token));
  if (!record) return { kind: 'unknown' };
  if (record.revoked_at !== null) return { kind: 'revoked' };
  if (record.expires_at <= ctx.clock.now()) return { kind: 'expired' };
  return { kind: 'live', record };
}

/** GET /redeem/{token}: the product, platform and instructions; never the key. */
export const redemptionPage = judge;

/**
 * POST /redeem/{token}/reveal: the keys of a live link, opened from the store. The first reveal
 * marks the order revealed and writes the `reveal` activity entry (0) in one transaction; later
 * reveals show the same keys and write nothing. Keys taken back since (refunded, returned)
 * are never shown: a link left with none answers `unavailable`.
 */
export async function revealOnPage(ctx: AppContext, token: string): Promise<PageState> {
  const state = await judge(ctx, token);
  if (state.kind !== 'live') return state;
  const { record } = state;
  return ctx.db.transaction().execute(async (trx) => {
    const [order] = await lockOrders(trx, [record.order_id]);
    const keys = (await keysOfOrder(trx, record.order_id)).filter((k) => k.state === 'sold');
    if (!order || keys.length === 0) return { kind: 'unavailable' as const };
    const now = ctx.clock.now();
    if (await repo.markFirstReveal(trx, record.id, now)) {
      await markRevealed(trx, order.id, now);
      await recordActivity(trx, 'reveal', activityEntryOf(order, keys.length, now));
    }
    return { kind: 'revealed' as const, record, keys: openKeys(ctx, keys) };
  });
}
