import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { changeProduct, requireProduct, requireSku, touchProduct } from '../catalog/index.js';
import { emit } from '../events/index.js';
import { insertPromotion, type PromotionRow } from './promotions.repo.js';

export interface PromotionInput {
  /** `promotion`: every seller that sees the product; `deal`: one seller (sellerCompanyId). */
  sourceType?: 'promotion' | 'deal';
  productId?: string;
  skuId?: string;
  sellerCompanyId?: string | null;
  discountPercent: number;
  startsAt: number;
  endsAt: number;
  /** The seller must accept it before it applies to their prices (GET /promotions, respond). */
  requiresAcceptance?: boolean;
}

/**
 * A percent-off window on a product or one SKU. Preview applies the best live promotion to the
 * list price; sellers see the product `updated` with `pricing` and `product.updated`.
 */
export async function createPromotion(ctx: AppContext, trx: Executor, input: PromotionInput) {
  if (!input.productId === !input.skuId)
    throw fail('VALIDATION_FAILED', 'Give exactly one of productId or skuId.');
  if (input.endsAt <= input.startsAt) throw fail('VALIDATION_FAILED', 'endsAt must be after startsAt.');
  const sourceType = input.sourceType ?? (input.sellerCompanyId ? 'deal' : 'promotion');
  if (sourceType === 'deal' && !input.sellerCompanyId)
    throw fail('VALIDATION_FAILED', 'A deal names sellerCompanyId.');
  const sku = input.skuId ? await requireSku(trx, input.skuId) : null;
  const product = await requireProduct(trx, sku?.product_id ?? input.productId!);
  const now = ctx.clock.now();
  const id = uuidv7(now);
  const diff = await changeProduct(ctx, trx, product, ['pricing'], async () => {
    await insertPromotion(trx, {
      id,
      publisher_company_id: product.publisher_company_id,
      environment: product.environment,
      source_type: sourceType,
      product_id: sku ? null : product.id,
      sku_id: sku?.id ?? null,
      seller_company_id: input.sellerCompanyId ?? null,
      discount_percent: input.discountPercent,
      requires_acceptance: input.requiresAcceptance ? 1 : 0,
      starts_at: input.startsAt,
      ends_at: input.endsAt,
      created_at: now,
      updated_at: now,
    });
    await touchProduct(trx, product.id, now);
  });
  const audience = [...diff.kept, ...diff.added].filter(
    (r) => sourceType === 'promotion' || r.companyId === input.sellerCompanyId,
  );
  await emit(ctx, trx, audience, 'product.updated', {
    productId: product.id,
    updatedAt: new Date(now).toISOString(),
  });
  return {
    id,
    sourceType,
    productId: product.id,
    skuId: sku?.id ?? null,
    discountPercent: input.discountPercent,
    requiresAcceptance: input.requiresAcceptance ?? false,
  };
}

/**
 * Whether a promotion applies to this seller's prices, given its response: one that needs
 * acceptance only once accepted; any other unless the seller declined it. The one rule behind
 * checkout's `promo`/`promoResolution` and GET /promotions' `appliesToPrices`.
 */
export function appliesToSeller(row: Pick<PromotionRow, 'requires_acceptance' | 'response'>): boolean {
  return row.response === 'accepted' || (row.requires_acceptance === 0 && row.response !== 'declined');
}

export interface LivePromotion {
  sourceType: 'promotion' | 'deal';
  sourceId: string;
  discountPercent: number;
  startsAt: number;
  endsAt: number;
}

/**
 * The best of the promotions live now on a SKU (`livePromotions`) that applies to the seller's
 * prices: the largest discount (then the one ending first). Checkout resolves promotions only
 * here.
 */
export function bestPromotion(live: readonly PromotionRow[]): LivePromotion | null {
  const rows = live.filter(appliesToSeller);
  const best = rows.sort((a, b) => b.discount_percent - a.discount_percent || a.ends_at - b.ends_at)[0];
  return best
    ? {
        sourceType: best.source_type,
        sourceId: best.id,
        discountPercent: best.discount_percent,
        startsAt: best.starts_at,
        endsAt: best.ends_at,
      }
    : null;
}
