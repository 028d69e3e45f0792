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
  starts_at: number;
  ends_at: number;
  created_at: number;
  updated_at: number;
}
