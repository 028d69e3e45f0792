import type { AppContext } from '../../../context.js';
import { ApiError, fail } from '../../../http/errors.js';
import type { AllocationRow } from '../../allocations/allocations.repo.js';
import { computeSellability, sellabilityGateRows } from '../../allocations/sellability.service.js';
import { territoryBlock } from '../../allocations/territory.js';
import { type EffectivePrice, effectivePrices } from '../../catalog/pricing.js';
import { priceRowsOfReleases } from '../../catalog/pricing.repo.js';
import { attestedCountry } from '../../geo-attest/geo-attest.service.js';
import { footprintInForce } from '../../identity/footprint.js';
import { companyFacts } from '../../identity/identity.service.js';
import type { PoolRow } from '../../inventory/index.js';
import { poolsOfSku } from '../../inventory/index.js';
import { inForceApiAgreement, sellerTerms } from '../../partners/seller-terms.service.js';
import { bestPromotion } from '../../promotions/index.js';
import { committedPriceDrift, isMagicSkuCode } from '../../sandbox/index.js';
import type { IntegrationOrderContext } from '../checkout.schemas.js';
import { type BuyerGeo, resolveBuyerGeo } from './buyer-geo.js';
import { type CheckoutSku, referenceRates } from './checkout.repo.js';
import { checkChannel, checkCommercial, requireDeclarations, type Schedule } from './commercial-rules.js';
import { hotReads } from './hot-reads.js';
import { lifecycleRefusal, type PreorderAcceptance, preorderGate } from './preorder.js';
import { verifyCommitment } from './price-commitment.js';
import { type PriceQuote, quotePrice } from './price-quote.js';
import { type Settlement, settle } from './settlement.js';

/** preview: quote only; hold: reserve capacity; order: a priced sale; pull: custody of keys. */
export type CheckoutMode = 'preview' | 'hold' | 'order' | 'pull';

export interface SellerActor {
  sellerId: string;
  environment: string;
  apiKeyId: string;
}

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

const list = (json: string | null): string[] => (json ? (JSON.parse(json) as string[]) : []);

const issue = (field: string, message: string, keyword = 'required') =>
  fail('VALIDATION_FAILED', `${field} ${message}.`, { issues: [{ field, in: 'body', message, keyword }] });

function pickAllocation(allocations: AllocationRow[], skuCode: string): AllocationRow {
  const active = allocations.find((a) => a.status === 'active');
  if (active) return active;
  if (allocations.length === 0) {
    throw fail('NOT_FOUND', `You hold no allocation on ${skuCode}.`, {
      reason: 'NO_ALLOCATION',
      recommendedAction: 'request_allocation',
      consoleAction: 'review_allocations',
    });
  }
  const paused = allocations.some((a) => a.status === 'paused');
  throw fail('FORBIDDEN', `Your allocation on ${skuCode} is ${paused ? 'paused' : 'revoked'}.`, {
    reason: paused ? 'ALLOCATION_PAUSED' : 'ALLOCATION_REVOKED',
    allocationId: allocations[0]!.id,
    consoleAction: 'review_allocations',
  });
}

/**
 * Judges one checkout line with the gates every mode shares, in this order: SKU in the seller's
 * catalog, agreement in force, allocation active, share and lifecycle (pre-order window),
 * declarations (orders), sales channel, the commercial checks (commercial-rules.ts), territory,
 * geo attestation, then the price bind. The first failing gate names the code. Reads only:
 * fulfilment re-checks capacity under its row locks. With `speculate` (a PostgreSQL caller whose
 * write statement proves the catalog version, `Quote.versionToProve`) the steady state reads
 * nothing; a refusal is judged again on the version read.
 */
export async function quoteLine(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  options: { speculate?: boolean } = {},
): Promise<Quote> {
  if (!options.speculate) return judgeLine(ctx, actor, input, mode, false);
  try {
    return await judgeLine(ctx, actor, input, mode, true);
  } catch (err) {
    // A refusal is never answered on a version nobody read: judged again on the current one.
    if (!(err instanceof ApiError)) throw err;
    return judgeLine(ctx, actor, input, mode, false);
  }
}

async function judgeLine(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  speculate: boolean,
): Promise<Quote> {
  const { sellerId, environment } = actor;
  const production = environment === 'production';
  const skuCode = input.skuCode;
  if (!skuCode) throw issue('skuCode', 'is required');
  if (production && isMagicSkuCode(skuCode)) {
    throw fail(
      'SANDBOX_MAGIC_VALUE_REJECTED',
      `${skuCode} is a sandbox magic SKU; production keys cannot use it.`,
      {
        skuCode,
      },
    );
  }
  const now = ctx.clock.now();
  // Catalog reads come from the cache of the current catalog version. Preview answers with the
  // grant's counters, so it reads the grants (with visibility and promotions) each time;
  // every other mode proves the counters in its own statements and takes them cached too
  // (hot-reads.ts).
  const {
    reads: cached,
    sku,
    visible,
    allocations,
    promotionRows,
    versionToProve,
  } = await hotReads(ctx, {
    sellerId,
    environment,
    skuCode,
    now,
    countersProven: mode !== 'preview',
    speculate,
  });
  if (!sku || !visible) {
    throw fail('NOT_FOUND', `SKU ${skuCode} is not in your catalog.`, { skuCode });
  }
  const priceRowsRead = cached.get(`prices:${sku.release_id}`, () =>
    priceRowsOfReleases(ctx.db, [sku.release_id]),
  );
  const [terms, gates, facts, priceRows, rates, pools] = await Promise.all([
    cached.get(`terms:${sellerId}:${environment}`, () => sellerTerms(ctx, sellerId, environment)),
    computeSellability(ctx, ctx.db, sellerId, environment, [sku.id], {
      allocations: Promise.resolve(allocations),
      priceRows: priceRowsRead,
      gateRows: cached.get(`gates:${sellerId}:${environment}:${sku.id}`, () =>
        sellabilityGateRows(ctx.db, sellerId, environment, [sku.id]),
      ),
    }),
    companyFacts(ctx, sellerId),
    priceRowsRead,
    cached.get('rates', () => referenceRates(ctx.db)),
    cached.get(`pools:${sku.id}`, () => poolsOfSku(ctx.db, sku.id)),
  ]);
  const promotion = bestPromotion(promotionRows);

  const publisherTerms = terms.find((t) => t.publisherCompanyId === sku.publisher_company_id);
  const api = publisherTerms ? inForceApiAgreement(publisherTerms) : null;
  if (!api) {
    const paused = publisherTerms?.agreements.some((a) => a.kind === 'bma' && a.status === 'paused');
    throw fail(
      'CONTRACT_NOT_ACTIVE',
      `No API agreement with this publisher is in force${paused ? ' (paused)' : ''}.`,
      {
        reason: paused ? 'agreement_paused' : 'no_api_agreement',
        publisherCompanyId: sku.publisher_company_id,
        consoleAction: 'review_partner_contracts',
      },
    );
  }
  const allocation = pickAllocation(allocations, skuCode);
  const blockers = gates.get(sku.id)?.readinessBlockers ?? [];
  if (blockers.includes('NO_SKU_SHARE')) {
    throw fail('NOT_FOUND', `${skuCode} is not shared with you.`, {
      reason: 'NO_SKU_SHARE',
      recommendedAction: 'request_publisher_sku_share',
      consoleAction: 'review_partner_catalog',
    });
  }
  const company = facts.company;
  let preorder: PreorderAcceptance | null = null;
  if (blockers.includes('LIFECYCLE_NOT_LIVE')) {
    if (sku.launch_phase !== 'pre_order' || mode === 'hold') throw lifecycleRefusal(sku);
    preorder = preorderGate(sku, company?.preorderVerifiedAt ?? null, now);
  }

  const context = input.integrationOrderContext;
  const priceBound =
    input.expectedUnitPriceCents !== undefined ||
    input.priceCommitmentToken !== undefined ||
    input.reservedPrice !== undefined;
  if (mode === 'order') requireDeclarations(context, production, priceBound);
  const given = input.countryCode?.toUpperCase();
  const declared = context?.salesCountryCode?.toUpperCase();
  if (given && declared && given !== declared) {
    throw issue('countryCode', 'differs from integrationOrderContext.salesCountryCode', 'const');
  }
  const country = given ?? declared ?? company?.country ?? undefined;
  if (!country) throw issue('countryCode', 'is required (or integrationOrderContext.salesCountryCode)');

  const schedule: Schedule = {
    currencyMode: api.currency_mode,
    currencyDetail: JSON.parse(api.currency_detail),
    permittedChannels: api.permitted_channels,
    marketplaceSlugs: JSON.parse(api.marketplace_slugs),
    consumerGeoPolicy: api.consumer_geo_policy,
    regionLocks: JSON.parse(api.region_locks),
  };
  checkChannel(context?.salesChannel, schedule);

  const prices = new Map<string, EffectivePrice>();
  for (const p of effectivePrices(priceRows, now).values())
    if (p.countryCode === country) prices.set(p.currencyCode, p);
  const currency =
    (context?.currencyCode ?? input.currencyCode)?.toUpperCase() ?? [...prices.keys()].sort()[0] ?? null;
  const attested = input.consumerGeoAttestId
    ? await attestedCountry(ctx, actor, input.consumerGeoAttestId, input.orderReference)
    : null;
  const geo = context || attested ? resolveBuyerGeo(ctx, country, context?.consumerIp, attested) : null;
  const settlement = context && currency && geo ? settle(context, currency, geo) : null;
  const footprint = footprintInForce(facts.footprint, production);
  const { secondaryCurrency, listPrice } = checkCommercial({
    country,
    currency,
    footprint,
    schedule,
    prices,
    saleNetMinor: settlement?.netMinor ?? null,
    unitsPerUsd: (c) => rates.get(c),
    geo: {
      declaredCountry: country,
      detectedCountry: geo?.detectedCountryCode ?? null,
      mismatch: geo?.countryMismatch ?? false,
    },
  });
  const saleCurrency = currency ?? listPrice.currencyCode;

  const blocked = territoryBlock(
    {
      contractRegionLocks: [],
      releaseExcludedCountries: list(sku.excluded_countries),
      activationType: sku.activation_type,
      activationCountries: sku.activation_countries ? list(sku.activation_countries) : null,
      skuRegionLocks: list(sku.region_locks),
      pricedCountries: new Set([country]),
    },
    country,
  );
  if (blocked) {
    throw fail(blocked, `${skuCode} cannot be sold into ${country} (${blocked}).`, {
      countryCode: country,
      skuId: sku.id,
      blockedReason: blocked,
      ...(sku.activation_type === 'countries' ? { allowedCountryCodes: list(sku.activation_countries) } : {}),
    });
  }
  if (mode === 'order' && allocation.consumer_geo_attest_required === 1 && !input.consumerGeoAttestId) {
    throw issue('consumerGeoAttestId', 'is required by this allocation');
  }

  const price =
    input.reservedPrice ??
    quotePrice(
      secondaryCurrency ? null : listPrice.listPriceCents,
      saleCurrency,
      promotion,
      input.expectedUnitPriceCents,
    );
  if (input.reservedPrice) {
    checkReservedCurrency(input.reservedPrice, saleCurrency);
  } else {
    bindPrice(ctx, actor, input, mode, {
      sku,
      country,
      currency: saleCurrency,
      price,
      secondaryCurrency,
      allocation,
    });
  }

  const warnings: Warning[] = [];
  if (geo?.countryMismatch) {
    warnings.push({
      code: 'COUNTRY_MISMATCH',
      message: `The buyer's ${geo.attested ? 'checkout page address' : 'IP'} resolves to ${geo.detectedCountryCode}, not the declared ${country}.`,
    });
  }
  const { consumerIp: _discarded, ...declaration } = context ?? {};
  return {
    sku,
    allocation,
    pools,
    country,
    currency: saleCurrency,
    price,
    secondaryCurrency,
    listPrice,
    geo,
    settlement,
    warnings,
    preorder,
    activation: {
      type: sku.activation_type,
      countries: sku.activation_countries ? list(sku.activation_countries) : null,
    },
    capabilities: {
      checkoutHoldEnabled: company?.checkoutHoldEnabled ?? false,
      keylessEnabled: company?.keylessEnabled ?? false,
    },
    storedContext: context ? { ...declaration, consumerIpHash: geo?.consumerIpHash ?? null } : null,
    versionToProve,
  };
}

/** A reservation's commit sells in the currency its price was bound in, or not at all. */
function checkReservedCurrency(reserved: PriceQuote, currency: string): void {
  if (reserved.currencyCode === currency) return;
  throw fail(
    'CURRENCY_MISMATCH',
    `The reservation's price is in ${reserved.currencyCode}, not ${currency}.`,
    { reservationCurrencyCode: reserved.currencyCode, currencyCode: currency },
  );
}

/** The price bind: the expected price (or the preview's commitment) must equal the effective price now. */
function bindPrice(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  q: {
    sku: CheckoutSku;
    country: string;
    currency: string;
    price: PriceQuote;
    secondaryCurrency: boolean;
    allocation: AllocationRow;
  },
): void {
  if (mode === 'preview') return;
  let expected = input.expectedUnitPriceCents;
  if (input.priceCommitmentToken) {
    const committed = verifyCommitment(ctx, input.priceCommitmentToken, {
      sellerId: actor.sellerId,
      environment: actor.environment,
      skuId: q.sku.id,
      country: q.country,
      currency: q.currency,
    });
    if (expected !== undefined && expected !== committed) {
      throw fail(
        'EXPECTED_PRICE_CONFLICT',
        'expectedUnitPriceCents differs from the price in priceCommitmentToken.',
        {
          expectedUnitPriceCents: expected,
          committedUnitPriceCents: committed,
        },
      );
    }
    expected = committed;
  }
  if (mode === 'order' && expected === undefined) {
    throw fail(
      'EXPECTED_UNIT_PRICE_REQUIRED',
      'Echo unitPriceCents from preview as expectedUnitPriceCents.',
      {
        unitPriceCents: q.price.unitPriceCents,
        currencyCode: q.currency,
      },
    );
  }
  const current = (q.price.unitPriceCents ?? 0) + committedPriceDrift(q.sku.code, actor.environment);
  if (expected !== undefined && !q.secondaryCurrency && expected !== current) {
    throw fail('CATALOG_PRICE_MISMATCH', `The price is ${current} ${q.currency}, not ${expected}.`, {
      expectedUnitPriceCents: expected,
      unitPriceCents: current,
      currencyCode: q.currency,
      countryCode: q.country,
    });
  }
  const wholesale = q.allocation.price_per_key_cents;
  if (
    input.expectedWholesaleUnitPriceCents !== undefined &&
    input.expectedWholesaleUnitPriceCents !== wholesale
  ) {
    throw fail('WHOLESALE_PRICE_MISMATCH', `The wholesale price per key is ${wholesale ?? 'not set'}.`, {
      expectedWholesaleUnitPriceCents: input.expectedWholesaleUnitPriceCents,
      wholesaleUnitPriceCents: wholesale,
      currencyCode: q.allocation.currency_code,
    });
  }
}
