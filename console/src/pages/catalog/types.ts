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

/** An allocation's figures, as GET /availability gives them for its SKU. */
export interface AllocationFigures {
  allocationLeft: number;
  /** null on an allocation orders do not use (`ordersUse` names the one they do). */
  keysInStock: number | null;
  sellableNow: number;
  ordersUse: string | null;
}

export interface Allocation {
  id: string;
  readableId: string;
  publisherCompanyName: string;
  productId: string | null;
  productName: string;
  skuId: string;
  skuCode: string;
  quantityLimit: number;
  quantityPulled: number;
  remaining: number;
  status: string;
  sellable: boolean;
  readinessBlockers: string[];
  recommendedAction: string | null;
  hotDrop: boolean;
  lowStockThreshold: number | null;
  hotDropState: { liveReservations: number; reservedUnits: number; slotsLeft: number } | null;
  figures: AllocationFigures;
}

export interface AllocationRequest {
  id: string;
  allocationReadableId: string;
  skuCode: string;
  requestedQuantity: number;
  status: string;
  resolution: { approvedQuantity: number | null; reason: string | null } | null;
  createdAt: string;
}

export interface Partner {
  id: string;
  publisherCompanyName: string;
  country: string | null;
  website: string | null;
  contracts: {
    activeBmaTypes: string[];
    pausedBmaTypes: string[];
    pendingBmaTypes: string[];
    mcaStatus: string;
    catalogShareMode: string;
    sharesSuspended: boolean;
  };
}
