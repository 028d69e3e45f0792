import type { AppContext } from '../../../context.js';
import { isoOf } from '../../../lib/clock.js';
import { remainingOf } from '../../allocations/index.js';
import { stockUpTo } from '../../inventory/index.js';
import { COMMITMENT_TTL_MS, issueCommitment } from './price-commitment.js';
import { promisedOnAllocation } from './promised-capacity.repo.js';
import type { LineInput, Quote, SellerActor } from './quote.js';
import { quoteLine } from './quote.service.js';

/** What an order could pull now: min(headroom, stock) less what live holds and pre-orders were promised. */
async function fulfillableNow(ctx: AppContext, quote: Quote): Promise<number> {
  const { allocation } = quote;
  const promised = await promisedOnAllocation(ctx.db, allocation.id, ctx.clock.now());
  const remaining = remainingOf(allocation);
  if (quote.preorder) return Math.max(0, remaining - promised);
  const stock = await stockUpTo(ctx.db, quote.sku.id, allocation.environment, allocation.id, remaining);
  return Math.max(0, Math.min(remaining, stock) - promised);
}

/**
 * POST /orders/preview: the line an order would be judged on (same gates, same codes), with the
 * price to echo, a signed commitment to it, whether the quantity can be fulfilled now and, when
 * the declaration is sent, the settlement the sale would carry. Changes nothing.
 */
export async function previewLine(ctx: AppContext, actor: SellerActor, input: LineInput) {
  const quote = await quoteLine(ctx, actor, input, 'preview');
  const available = await fulfillableNow(ctx, quote);
  const { price } = quote;
  const token =
    price.unitPriceCents === null || quote.secondaryCurrency
      ? undefined
      : issueCommitment(ctx, {
          sellerId: actor.sellerId,
          environment: actor.environment,
          skuId: quote.sku.id,
          country: quote.country,
          currency: quote.currency,
          unitPriceCents: price.unitPriceCents,
        });
  return {
    skuCode: quote.sku.code,
    skuId: quote.sku.id,
    productId: quote.sku.product_id,
    allocationId: quote.allocation.id,
    quantity: input.quantity,
    countryCode: quote.country,
    currencyCode: quote.currency,
    unitPriceCents: price.unitPriceCents,
    initialUnitPriceCents: price.initialUnitPriceCents,
    promo: price.promo,
    promoResolution: price.promoResolution,
    secondaryCurrency: quote.secondaryCurrency,
    wholesaleUnitPriceCents: quote.allocation.price_per_key_cents,
    wholesaleCurrencyCode: quote.allocation.currency_code,
    canFulfill: input.quantity <= available,
    maxFulfillableQuantity: available,
    preorder: quote.preorder !== null,
    activation: quote.activation,
    ...(token
      ? { priceCommitmentToken: token, priceCommitmentExpiresAt: isoOf(ctx.clock.now() + COMMITMENT_TTL_MS) }
      : {}),
    ...(quote.settlement ? { settlement: quote.settlement } : {}),
    ...(quote.geo
      ? { detectedCountryCode: quote.geo.detectedCountryCode, countryMismatch: quote.geo.countryMismatch }
      : {}),
    warnings: quote.warnings,
  };
}
