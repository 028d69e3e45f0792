import { isoOf } from '../../../lib/clock.js';
import { discounted } from '../../../lib/money.js';
import type { LivePromotion } from '../../promotions/index.js';

export type PromoResolution = 'applied' | 'none' | 'unavailable';

export interface PriceQuote {
  /** The effective (promotion-adjusted) price per key: what `expectedUnitPriceCents` must echo. */
  unitPriceCents: number | null;
  initialUnitPriceCents: number | null;
  currencyCode: string;
  promo: {
    sourceType: string;
    sourceId: string;
    discountPercent: number;
    priceEffect: string;
    startDate: string;
    endDate: string;
  } | null;
  promoResolution: PromoResolution;
}

/**
 * The price of one key. With a catalog price in the sale currency, the best live promotion
 * applies (rounded half up to the minor unit). A secondary-currency sale has no catalog price:
 * it settles at the seller's expected price and promotions cannot apply (`unavailable`).
 */
export function quotePrice(
  listPriceCents: number | null,
  currencyCode: string,
  promotion: LivePromotion | null,
  expectedUnitPriceCents: number | undefined,
): PriceQuote {
  if (listPriceCents === null) {
    return {
      unitPriceCents: expectedUnitPriceCents ?? null,
      initialUnitPriceCents: expectedUnitPriceCents ?? null,
      currencyCode,
      promo: null,
      promoResolution: promotion ? 'unavailable' : 'none',
    };
  }
  if (!promotion) {
    return {
      unitPriceCents: listPriceCents,
      initialUnitPriceCents: listPriceCents,
      currencyCode,
      promo: null,
      promoResolution: 'none',
    };
  }
  return {
    unitPriceCents: discounted(listPriceCents, promotion.discountPercent),
    initialUnitPriceCents: listPriceCents,
    currencyCode,
    promo: {
      sourceType: promotion.sourceType,
      sourceId: promotion.sourceId,
      discountPercent: promotion.discountPercent,
      priceEffect: 'percent_off',
      startDate: isoOf(promotion.startsAt),
      endDate: isoOf(promotion.endsAt),
    },
    promoResolution: 'applied',
  };
}
