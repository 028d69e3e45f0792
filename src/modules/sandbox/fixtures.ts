/**
 * The sandbox fixture catalog (docs/publisher-side.md, "Sandbox fixtures"): one sandbox publisher
 * whose SKUs each show one behaviour. Shared by every sandbox key; per-company allocations are
 * provisioned on first use.
 */
export const SANDBOX_PUBLISHER_ID = '00000000-0000-7000-8000-5a4db0000001';
export const SANDBOX_PUBLISHER_NAME = 'Sandbox Publisher';

export type PoolSetup =
  | { mode: 'infinite' }
  | { mode: 'pinned'; available: number }
  /** A finite dedicated pool of this many synthetic keys per sandbox company. */
  | { mode: 'per_company'; keys: number }
  | { mode: 'empty' };

export interface MagicSku {
  code: string;
  product: string;
  platform: string;
  shared: boolean;
  allocated: boolean;
  pool: PoolSetup;
  prices: { country: string; currency: string; cents: number }[];
  wholesaleCents?: number;
  excludedCountries?: string[];
  /** The seller's allocation is in hot-drop mode: reserve and commit (POST /orders/reserve). */
  hotDrop?: boolean;
  /** Checkout sees the price move between preview and commit: every order is a price mismatch. */
  priceMovesAtCommit?: boolean;
  productStatus?: {
    tradingState?: 'suspended';
    launchPhase?: 'pre_order';
    releaseState?: 'announced';
    churnPeriodHours?: number;
  };
  description: string;
}

const US_EU = [
  { country: 'US', currency: 'USD', cents: 1999 },
  { country: 'GB', currency: 'GBP', cents: 1699 },
  { country: 'DE', currency: 'EUR', cents: 1899 },
  { country: 'FR', currency: 'EUR', cents: 1899 },
  { country: 'NL', currency: 'EUR', cents: 1899 },
];

const sku = (
  code: string,
  product: string,
  description: string,
  extra: Partial<MagicSku> = {},
): MagicSku => ({
  code,
  product,
  platform: 'steam',
  shared: true,
  allocated: true,
  pool: { mode: 'infinite' },
  prices: US_EU,
  description,
  ...extra,
});

export const MAGIC_SKUS: MagicSku[] = [
  sku(
    'SANDBOX-ALWAYS-001',
    'Sandbox Always',
    'Happy path: a large pool that is replenished and never runs out.',
  ),
  sku('SANDBOX-ALWAYS-PS5-001', 'Sandbox Always', 'The same product on an extra platform, for browsing.', {
    platform: 'ps5',
  }),
  sku('SANDBOX-STD-001', 'Sandbox Standard', 'A finite pool of 25 keys per sandbox company.', {
    pool: { mode: 'per_company', keys: 25 },
  }),
  sku('SANDBOX-EUR1-001', 'Sandbox Euro', 'About 1 EUR, sold in DE, FR and NL at 100 cents.', {
    prices: ['DE', 'FR', 'NL'].map((country) => ({ country, currency: 'EUR', cents: 100 })),
  }),
  sku(
    'SANDBOX-NOKEYS-001',
    'Sandbox No Keys',
    'Allocated but the pool is empty: preview canFulfill false, order 409.',
    { pool: { mode: 'empty' } },
  ),
  sku(
    'SANDBOX-TERR-BLOCK-001',
    'Sandbox Territory Block',
    'Blocked for US by a release territory exclusion.',
    { excludedCountries: ['US'] },
  ),
  sku(
    'SANDBOX-PRICE-MIS-001',
    'Sandbox Price Mismatch',
    'Orders always disagree with the catalog price: 422 CATALOG_PRICE_MISMATCH.',
    { priceMovesAtCommit: true },
  ),
  sku('SANDBOX-WHOLESALE-MIS-001', 'Sandbox Wholesale Mismatch', 'Wholesale grant at 2500 cents.', {
    wholesaleCents: 2500,
  }),
  sku(
    'SANDBOX-NOALLOC-001',
    'Sandbox No Allocation',
    'Shared without an allocation: visible, not sellable.',
    { allocated: false },
  ),
  sku('SANDBOX-NOSHARE-001', 'Sandbox No Share', 'Not shared: absent from the catalog.', {
    shared: false,
    allocated: false,
  }),
  sku('SANDBOX-LIFECYCLE-001', 'Sandbox Lifecycle', 'Trading suspended: PRODUCT_NOT_SELLABLE.', {
    productStatus: { tradingState: 'suspended' },
  }),
  sku(
    'SANDBOX-PREORDER-001',
    'Sandbox Preorder',
    'A pre-order whose window is not open: visible, not sellable.',
    {
      productStatus: { launchPhase: 'pre_order', releaseState: 'announced' },
    },
  ),
  sku('SANDBOX-LOWSTOCK-001', 'Sandbox Low Stock', 'Pool pinned at 3: quantity 4 gives 409.', {
    pool: { mode: 'pinned', available: 3 },
  }),
  sku('SANDBOX-KEYLESS-001', 'Sandbox Keyless', 'Hosted redemption when keylessEnabled.'),
  sku(
    'SANDBOX-HOTDROP-001',
    'Sandbox Hot Drop',
    'In hot-drop mode: reserve with POST /orders/reserve, then commit. Replenished, so reservations never run dry.',
    { hotDrop: true },
  ),
  sku(
    'SANDBOX-HOTDROP-LIMITED-001',
    'Sandbox Hot Drop Limited',
    'In hot-drop mode with 5 keys per sandbox company: the sixth key reserved answers 409 SOLD_OUT.',
    { hotDrop: true, pool: { mode: 'per_company', keys: 5 } },
  ),
  sku(
    'SANDBOX-CHURN-001',
    'Sandbox Churn',
    'Live and archived alternate every 6 hours of the service clock.',
    {
      productStatus: { churnPeriodHours: 6 },
    },
  ),
];

const PRICE_MOVERS = new Set(MAGIC_SKUS.filter((m) => m.priceMovesAtCommit).map((m) => m.code));

/** How far the price of a price-mismatch fixture has moved by the time an order commits. */
export const committedPriceDrift = (skuCode: string, environment: string): number =>
  environment === 'sandbox' && PRICE_MOVERS.has(skuCode) ? 100 : 0;

/** Orders on this fixture use keyless delivery by default when the seller has the capability. */
export const KEYLESS_FIXTURE = 'SANDBOX-KEYLESS-001';
