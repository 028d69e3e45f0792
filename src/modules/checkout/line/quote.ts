import type { AllocationRow } from '../../allocations/index.js';
import type { EffectivePrice } from '../../catalog/index.js';
import type { PoolRow } from '../../inventory/index.js';
import type { IntegrationOrderContext } from '../checkout.schemas.js';
import type { BuyerGeo } from './buyer-geo.js';
import type { CheckoutSku } from './checkout.repo.js';
import type { PreorderAcceptance } from './preorder.js';
import type { PriceQuote } from './price-quote.js';
import type { Settlement } from './settlement.js';

/**
 * The checkout line's vocabulary: who asks (`SellerActor`), what (`LineInput`, in a
 * `CheckoutMode`), and the judged answer every later step writes down (`Quote`). The line is
 * quoted in two stages, read (line-snapshot.ts) then judge (judge-line.ts); quote.service.ts
 * runs them.
 */

/** preview: quote only; hold: reserve capacity; order: a priced sale; pull: custody of keys. */
export type CheckoutMode = 'preview' | 'hold' | 'order' | 'pull';

export type { SellerActor } from '../../../http/request-context.js';

export interface LineInput {
  skuCode?: string;
  quantity: number;
  countryCode?: string;
  currencyCode?: string;
  expectedUnitPriceCents?: number;
  expectedWholesaleUnitPriceCents?: number;
  priceCommitmentToken?: string;
  consumerGeoAttestId?: string;
  integrationOrderContext?: IntegrationOrderContext;
  /** The order's reference, when the line is an order's: an attestation spent on it may be reused. */
  orderReference?: string;
  /**
   * The price a hot-drop reservation bound when it was made (docs/hot-drops.md): its commit
   * sells at it, whatever the catalog says now. Never read from a request body.
   */
  reservedPrice?: PriceQuote;
}

export interface Warning {
  code: string;
  message: string;
}

/** Everything a checkout line was judged on; fulfilment writes it down as it stood. */
export interface Quote {
  sku: CheckoutSku;
  allocation: AllocationRow;
  /** The SKU's key pools, read under the catalog version like the SKU (claims choose from them). */
  pools: readonly PoolRow[];
  country: string;
  currency: string;
  price: PriceQuote;
  secondaryCurrency: boolean;
  listPrice: EffectivePrice;
  geo: BuyerGeo | null;
  settlement: Settlement | null;
  warnings: Warning[];
  preorder: PreorderAcceptance | null;
  activation: { type: string; countries: string[] | null };
  capabilities: { checkoutHoldEnabled: boolean; keylessEnabled: boolean };
  /** The declaration as stored: without `consumerIp`, with its hash. */
  storedContext: Record<string, unknown> | null;
  /** The catalog version judged under, if the request did not read it: see `HotReads`. */
  versionToProve: number | null;
}
