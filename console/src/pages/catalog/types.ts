export interface ProductRow {
  id: string;
  name: string;
  slug: string;
  status: string;
  publisherCompanyName?: string | null;
  publisherCompanyId?: string;
  /** The list's SKU codes (the catalog page's rows carry them). */
  skuCodes?: string[];
  /** The lowest US list price in USD cents, or null where no US price is set. */
  listPriceFromCents?: number | null;
  platforms?: { code: string }[];
  launchPhase?: string;
  updatedAt?: string;
}

export interface Sku {
  id: string;
  code: string;
  platform: string;
  releaseId: string;
  delisted: boolean;
}

export interface ProductDetail extends ProductRow {
  editions: { id: string; name: string }[];
  releases: {
    id: string;
    name: string;
    editionId: string | null;
    state: string;
    releaseDate: string | null;
    delisted: boolean;
    skus: Sku[];
  }[];
  pricing: {
    releaseId: string;
    countryCode: string;
    currencyCode: string;
    listPriceCents: number;
    srpMinCents: number | null;
    srpMaxCents: number | null;
  }[];
}
