import type { AppContext } from '../../../context.js';
import { fail, isApiError } from '../../../http/errors.js';
import { isoOf } from '../../../lib/clock.js';
import { uuidv7 } from '../../../lib/ids.js';
import { recordPromise, remainingOf, requireAllocation } from '../../allocations/index.js';
import { companyFacts } from '../../companies/index.js';
import { stockUpTo } from '../../inventory/index.js';
import type { HoldStatus } from '../checkout.table.js';
import { promisedOnAllocation } from '../line/promised-capacity.repo.js';
import type { LineInput, SellerActor } from '../line/quote.js';
import { quoteLine } from '../line/quote.service.js';
import * as repo from './holds.repo.js';

export const HOLD_TTL = { defaultSeconds: 1800, minSeconds: 60, maxSeconds: 3600 } as const;

export interface HoldOutcome {
  holdId: string;
  status: string;
  committedWithoutHold: boolean;
  /** What the hold had become when an order named it after it ended. */
  endedAs?: HoldStatus;
}

/** A stored `active` hold past its TTL is expired: expiry needs no sweeper to be exact. */
export const effectiveStatus = (hold: repo.HoldRow, now: number): HoldStatus =>
  hold.status === 'active' && hold.expires_at <= now ? 'expired' : hold.status;

/** A live hold is consumed; any ended one lets the order commit as a plain order. */
export function holdOutcome(hold: repo.HoldRow, now: number): HoldOutcome {
  const status = effectiveStatus(hold, now);
  if (status === 'active') return { holdId: hold.id, status: 'consumed', committedWithoutHold: false };
  return { holdId: hold.id, status: 'expired', committedWithoutHold: true, endedAs: status };
}

/** The seller's own hold, or the refusal 422 HOLD_NOT_FOUND (another company's hold is never revealed). */
export async function ownHold(ctx: AppContext, actor: SellerActor, holdId: string) {
  const hold = await repo.findHold(ctx.db, holdId);
  if (!hold || hold.seller_company_id !== actor.sellerId || hold.environment !== actor.environment) {
    return fail('HOLD_NOT_FOUND', `No checkout hold ${holdId}.`, { holdId });
  }
  return hold;
}

export interface HoldRequest extends LineInput {
  skuCode: string;
  countryCode: string;
  orderReference: string;
  ttlSeconds?: number;
}

const clampTtl = (seconds: number | undefined) =>
  Math.min(HOLD_TTL.maxSeconds, Math.max(HOLD_TTL.minSeconds, seconds ?? HOLD_TTL.defaultSeconds));

/**
 * POST /orders/hold: the same gates as an order, then, under the grant's row lock, capacity
 * bounded by min(headroom, keys in stock) minus what live holds and pre-orders were promised.
 */
export async function placeHold(ctx: AppContext, actor: SellerActor, input: HoldRequest) {
  const { company } = await companyFacts(ctx, actor.sellerId);
  if (!company?.checkoutHoldEnabled) {
    throw fail('CHECKOUT_HOLD_DISABLED', 'Checkout holds are not enabled for your company.', {
      reason: 'capability_disabled',
    });
  }
  const quote = await quoteLine(ctx, actor, input, 'hold');
  if (quote.allocation.holds_enabled !== 1) {
    throw fail('CHECKOUT_HOLD_DISABLED', `The publisher disabled checkout holds on ${input.skuCode}.`, {
      reason: 'allocation_holds_disabled',
      allocationId: quote.allocation.id,
    });
  }
  const now = ctx.clock.now();
  const expiresAt = now + clampTtl(input.ttlSeconds) * 1000;
  const id = uuidv7(now);
  await ctx.db.transaction().execute(async (trx) => {
    const allocation = await requireAllocation(trx, quote.allocation.id, true);
    if (allocation.status !== 'active') throw fail('FORBIDDEN', `The allocation is ${allocation.status}.`);
    const promised = await promisedOnAllocation(trx, allocation.id, now);
    const remaining = remainingOf(allocation);
    const stock = await stockUpTo(trx, quote.sku.id, actor.environment, allocation.id, remaining);
    const capacity = Math.min(remaining, stock) - promised;
    if (input.quantity > capacity) {
      throw fail('SOLD_OUT', `Only ${Math.max(0, capacity)} keys of ${input.skuCode} can still be held.`, {
        skuCode: input.skuCode,
        requested: input.quantity,
        available: Math.max(0, capacity),
      });
    }
    await repo.insertHold(trx, {
      id,
      seller_company_id: actor.sellerId,
      environment: actor.environment,
      api_key_id: actor.apiKeyId,
      allocation_id: allocation.id,
      sku_id: quote.sku.id,
      sku_code: quote.sku.code,
      quantity: input.quantity,
      country_code: quote.country,
      currency_code: quote.currency,
      order_reference: input.orderReference,
      unit_price_cents: quote.price.unitPriceCents ?? 0,
      initial_unit_price_cents: quote.price.initialUnitPriceCents ?? 0,
      promo: quote.price.promo ? JSON.stringify(quote.price.promo) : null,
      status: 'active',
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
    });
    await recordPromise(trx, allocation);
  });
  return {
    type: 'checkout_hold' as const,
    holdId: id,
    expiresAt: isoOf(expiresAt),
    expiresInSeconds: Math.round((expiresAt - now) / 1000),
    allocationId: quote.allocation.id,
    maxFulfillableQuantity: input.quantity,
    quantity: input.quantity,
    skuCode: quote.sku.code,
    orderReference: input.orderReference,
    countryCode: quote.country,
    currencyCode: quote.currency,
    unitPriceCents: quote.price.unitPriceCents,
    initialUnitPriceCents: quote.price.initialUnitPriceCents,
    promo: quote.price.promo,
    promoResolution: quote.price.promoResolution,
  };
}

/** DELETE /orders/hold: a live hold is released; an ended one is reported as it ended. */
export async function releaseHold(ctx: AppContext, actor: SellerActor, holdId: string) {
  const hold = await ownHold(ctx, actor, holdId);
  if (isApiError(hold)) throw hold;
  const now = ctx.clock.now();
  if (await repo.endLiveHold(ctx.db, holdId, 'released', now)) {
    return { holdId, status: 'released' as HoldStatus, released: true };
  }
  const ended = await repo.findHold(ctx.db, holdId);
  return { holdId, status: effectiveStatus(ended ?? hold, now), released: false };
}
