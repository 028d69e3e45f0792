import type { Generated } from 'kysely';

export interface PromotionsTable {
  id: string;
  publisher_company_id: string;
  environment: string;
  /** `promotion` (public) or `deal` (targeted at one seller). */
  source_type: 'promotion' | 'deal';
  product_id: string | null;
  sku_id: string | null;
  seller_company_id: string | null;
  discount_percent: number;
  /** 1: applies to this seller's prices only once the seller accepted it. */
  requires_acceptance: Generated<number>;
  starts_at: number;
  ends_at: number;
  created_at: number;
  updated_at: number;
}

export type PromotionResponse = 'accepted' | 'declined';

/** A seller's answer to a promotion share or a deal; the latest answer counts. */
export interface PromotionResponsesTable {
  promotion_id: string;
  seller_company_id: string;
  response: PromotionResponse;
  responded_at: number;
}
