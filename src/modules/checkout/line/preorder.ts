import { type ApiError, fail } from '../../../http/errors.js';
import { isoOrNull } from '../../../lib/clock.js';
import type { CheckoutSku } from './checkout.repo.js';

export interface PreorderAcceptance {
  expectedReleaseAt: number | null;
}

const facts = (sku: CheckoutSku) => ({
  productId: sku.product_id,
  skuId: sku.id,
  launchPhase: sku.launch_phase,
  preorderStart: isoOrNull(sku.preorder_start),
  preorderEnd: isoOrNull(sku.preorder_end),
  releaseDate: isoOrNull(sku.release_date),
});

/** An immediate pull of a product that is not live: 404 PRODUCT_NOT_SELLABLE. */
export function lifecycleRefusal(sku: CheckoutSku) {
  const upcoming = sku.launch_phase !== 'released';
  return fail('PRODUCT_NOT_SELLABLE', `${sku.code} is not sellable now.`, {
    ...facts(sku),
    reason: 'LIFECYCLE_NOT_LIVE',
    recommendedAction: upcoming ? 'wait_for_release' : 'delist_sku',
  });
}

/**
 * A pre-order passes the live checks and is accepted only inside its window
 * and with the seller's pre-order capability; refusals are 422 PRODUCT_NOT_SELLABLE, never a
 * live pull. A pre-order product whose publisher has published no window yet is not open:
 * 422 PRODUCT_NOT_SELLABLE `PREORDER_NOT_OPEN`, like one whose window starts later. (503
 * PREORDER_STATE_UNAVAILABLE is for a pre-order state that cannot be read at all.) The
 * acceptance, or the refusal.
 */
export function preorderGate(
  sku: CheckoutSku,
  sellerVerifiedAt: number | null,
  now: number,
): PreorderAcceptance | ApiError {
  const refuse = (reason: string, recommendedAction: string, message: string) =>
    fail('PRODUCT_NOT_SELLABLE', message, { ...facts(sku), reason, recommendedAction }, {}, 422);
  if (sellerVerifiedAt === null) {
    return refuse(
      'PREORDER_DISABLED',
      'request_preorder_capability',
      'Your company is not verified for pre-orders.',
    );
  }
  if (sku.preorder_enabled !== 1) {
    return refuse(
      'PREORDER_DISABLED',
      'wait_for_release',
      `The publisher does not take pre-orders for ${sku.code}.`,
    );
  }
  if (sku.preorder_start === null) {
    return refuse(
      'PREORDER_NOT_OPEN',
      'wait_for_preorder_window',
      `The publisher has not published a pre-order window for ${sku.code} yet.`,
    );
  }
  if (now < sku.preorder_start) {
    return refuse(
      'PREORDER_NOT_OPEN',
      'wait_for_preorder_window',
      `Pre-orders for ${sku.code} have not opened.`,
    );
  }
  if (sku.preorder_end !== null && now > sku.preorder_end) {
    return refuse('PREORDER_CLOSED', 'wait_for_release', `Pre-orders for ${sku.code} have closed.`);
  }
  return { expectedReleaseAt: sku.release_date };
}
