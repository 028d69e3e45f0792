/**
 * The promotions module's front door: its routes, the live promotions checkout prices with, and
 * the operator's way to create one.
 */

export {
  isLiveAt,
  livePromotions,
  livePromotionsQuery,
  type PromotionRow,
  unendedPromotions,
} from './promotions.repo.js';
export { registerPromotionRoutes } from './promotions.routes.js';
export { bestPromotion, createPromotion, type LivePromotion } from './promotions.service.js';
