import type { AppContext } from '../../../context.js';
import { type ApiError, fail, isApiError } from '../../../http/errors.js';
import { isMagicSkuCode } from '../../../http/simulate.js';
import { type AllocationRow, territoryBlock } from '../../allocations/index.js';
import { type EffectivePrice, effectivePrices } from '../../catalog/index.js';
import { footprintInForce } from '../../companies/index.js';
import { inForceApiAgreement } from '../../partners/index.js';
import { bestPromotion } from '../../promotions/index.js';
import { committedPriceDrift } from '../../sandbox/index.js';
import { resolveBuyerGeo } from './buyer-geo.js';
import type { CheckoutSku } from './checkout.repo.js';
import { channelRefusal, checkCommercial, declarationsRefusal, type Schedule } from './commercial-rules.js';
import type { LineSnapshot } from './line-snapshot.js';
import { lifecycleRefusal, type PreorderAcceptance, preorderGate } from './preorder.js';
import { verifyCommitment } from './price-commitment.js';
import { type PriceQuote, quotePrice } from './price-quote.js';
import type { CheckoutMode, LineInput, Quote, SellerActor, Warning } from './quote.js';
import { settle } from './settlement.js';

const list = (json: string | null): string[] => (json ? (JSON.parse(json) as string[]) : []);

const issue = (field: string, message: string, keyword = 'required') =>
  fail('VALIDATION_FAILED', `${field} ${message}.`, { issues: [{ field, in: 'body', message, keyword }] });

function pickAllocation(allocations: AllocationRow[], skuCode: string): AllocationRow | ApiError {
  const active = allocations.find((a) => a.status === 'active');
  if (active) return active;
  if (allocations.length === 0) {
    return fail('NOT_FOUND', `You hold no allocation on ${skuCode}.`, {
      reason: 'NO_ALLOCATION',
      recommendedAction: 'request_allocation',
      consoleAction: 'review_allocations',
    });
  }
  const paused = allocations.some((a) => a.status === 'paused');
  return fail('FORBIDDEN', `Your allocation on ${skuCode} is ${paused ? 'paused' : 'revoked'}.`, {
    reason: paused ? 'ALLOCATION_PAUSED' : 'ALLOCATION_REVOKED',
    allocationId: allocations[0]!.id,
    consoleAction: 'review_allocations',
  });
}

/**
 * The judge stage of a checkout line: the gates every mode shares, on the line's snapshot
 * (line-snapshot.ts), in this order: SKU in the seller's catalog, agreement in force,
 * allocation active, share and lifecycle (pre-order window), declarations (orders), sales
 * channel, the commercial checks (commercial-rules.ts), territory, geo attestation, then the
 * price bind. The first failing gate's refusal is the answer; otherwise the quote. No I/O:
 * `ctx` lends only the geo-IP table, the IP pepper and the key that signs price commitments.
 * Capacity is not judged here: fulfilment checks it under its row locks.
 */
export function judgeLine(
  ctx: AppContext,
  snapshot: LineSnapshot,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
): Quote | ApiError {
  const { environment } = actor;
  const { now, versionToProve, seen } = snapshot;
  const production = environment === 'production';
  const skuCode = input.skuCode;
  if (!skuCode) return issue('skuCode', 'is required');
  if (production && isMagicSkuCode(skuCode)) {
    return fail(
      'SANDBOX_MAGIC_VALUE_REJECTED',
      `${skuCode} is a sandbox magic SKU; production keys cannot use it.`,
      {
        skuCode,
      },
    );
  }
  if (!seen) return fail('NOT_FOUND', `SKU ${skuCode} is not in your catalog.`, { skuCode });
  const { sku, terms, sellability, facts, priceRows, rates, pools } = seen;
  const promotion = bestPromotion(seen.promotionRows);

  const publisherTerms = terms.find((t) => t.publisherCompanyId === sku.publisher_company_id);
  const api = publisherTerms ? inForceApiAgreement(publisherTerms) : null;
  if (!api) {
    const paused = publisherTerms?.agreements.some((a) => a.kind === 'bma' && a.status === 'paused');
    return fail(
      'CONTRACT_NOT_ACTIVE',
      `No API agreement with this publisher is in force${paused ? ' (paused)' : ''}.`,
      {
        reason: paused ? 'agreement_paused' : 'no_api_agreement',
        publisherCompanyId: sku.publisher_company_id,
        consoleAction: 'review_partner_contracts',
      },
    );
  }
  const allocation = pickAllocation(seen.allocations, skuCode);
  if (isApiError(allocation)) return allocation;
  const blockers = sellability.get(sku.id)?.readinessBlockers ?? [];
  if (blockers.includes('NO_SKU_SHARE')) {
    return fail('NOT_FOUND', `${skuCode} is not shared with you.`, {
      reason: 'NO_SKU_SHARE',
      recommendedAction: 'request_publisher_sku_share',
      consoleAction: 'review_partner_catalog',
    });
  }
  const company = facts.company;
  let preorder: PreorderAcceptance | null = null;
  if (blockers.includes('LIFECYCLE_NOT_LIVE')) {
    if (sku.launch_phase !== 'pre_order' || mode === 'hold') return lifecycleRefusal(sku);
    const accepted = preorderGate(sku, company?.preorderVerifiedAt ?? null, now);
    if (isApiError(accepted)) return accepted;
    preorder = accepted;
  }

  const context = input.integrationOrderContext;
  const priceBound =
    input.expectedUnitPriceCents !== undefined ||
    input.priceCommitmentToken !== undefined ||
    input.reservedPrice !== undefined;
  const undeclared = mode === 'order' ? declarationsRefusal(context, production, priceBound) : null;
  if (undeclared) return undeclared;
  const given = input.countryCode?.toUpperCase();
  const declared = context?.salesCountryCode?.toUpperCase();
  if (given && declared && given !== declared) {
    return issue('countryCode', 'differs from integrationOrderContext.salesCountryCode', 'const');
  }
  const country = given ?? declared ?? company?.country ?? undefined;
  if (!country) return issue('countryCode', 'is required (or integrationOrderContext.salesCountryCode)');

  const schedule: Schedule = {
    currencyMode: api.currency_mode,
    currencyDetail: JSON.parse(api.currency_detail),
    permittedChannels: api.permitted_channels,
    marketplaceSlugs: JSON.parse(api.marketplace_slugs),
    consumerGeoPolicy: api.consumer_geo_policy,
    regionLocks: JSON.parse(api.region_locks),
  };
  const offChannel = channelRefusal(context?.salesChannel, schedule);
  if (offChannel) return offChannel;

  const prices = new Map<string, EffectivePrice>();
  for (const p of effectivePrices(priceRows, now).values())
    if (p.countryCode === country) prices.set(p.currencyCode, p);
  const currency =
    (context?.currencyCode ?? input.currencyCode)?.toUpperCase() ?? [...prices.keys()].sort()[0] ?? null;
  const attested = seen.attestation;
  if (isApiError(attested)) return attested;
  const geo = context || attested ? resolveBuyerGeo(ctx, country, context?.consumerIp, attested) : null;
  if (isApiError(geo)) return geo;
  const settlement = context && currency && geo ? settle(context, currency, geo) : null;
  const footprint = footprintInForce(facts.footprint, production);
  const commercial = checkCommercial({
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
  if (isApiError(commercial)) return commercial;
  const { secondaryCurrency, listPrice } = commercial;
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
    return fail(blocked, `${skuCode} cannot be sold into ${country} (${blocked}).`, {
      countryCode: country,
      skuId: sku.id,
      blockedReason: blocked,
      ...(sku.activation_type === 'countries' ? { allowedCountryCodes: list(sku.activation_countries) } : {}),
    });
  }
  if (mode === 'order' && allocation.consumer_geo_attest_required === 1 && !input.consumerGeoAttestId) {
    return issue('consumerGeoAttestId', 'is required by this allocation');
  }

  const price =
    input.reservedPrice ??
    quotePrice(
      secondaryCurrency ? null : listPrice.listPriceCents,
      saleCurrency,
      promotion,
      input.expectedUnitPriceCents,
    );
  const unbound = input.reservedPrice
    ? reservedCurrencyRefusal(input.reservedPrice, saleCurrency)
    : priceBindRefusal(ctx, actor, input, mode, now, {
        sku,
        country,
        currency: saleCurrency,
        price,
        secondaryCurrency,
        allocation,
      });
  if (unbound) return unbound;

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
function reservedCurrencyRefusal(reserved: PriceQuote, currency: string): ApiError | null {
  if (reserved.currencyCode === currency) return null;
  return fail(
    'CURRENCY_MISMATCH',
    `The reservation's price is in ${reserved.currencyCode}, not ${currency}.`,
    { reservationCurrencyCode: reserved.currencyCode, currencyCode: currency },
  );
}

/** The price bind: the expected price (or the preview's commitment) must equal the effective price now. */
function priceBindRefusal(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  now: number,
  q: {
    sku: CheckoutSku;
    country: string;
    currency: string;
    price: PriceQuote;
    secondaryCurrency: boolean;
    allocation: AllocationRow;
  },
): ApiError | null {
  if (mode === 'preview') return null;
  let expected = input.expectedUnitPriceCents;
  if (input.priceCommitmentToken) {
    const committed = verifyCommitment(
      ctx.secrets,
      input.priceCommitmentToken,
      {
        sellerId: actor.sellerId,
        environment: actor.environment,
        skuId: q.sku.id,
        country: q.country,
        currency: q.currency,
      },
      now,
    );
    if (isApiError(committed)) return committed;
    if (expected !== undefined && expected !== committed) {
      return fail(
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
    return fail(
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
    return fail('CATALOG_PRICE_MISMATCH', `The price is ${current} ${q.currency}, not ${expected}.`, {
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
    return fail('WHOLESALE_PRICE_MISMATCH', `The wholesale price per key is ${wholesale ?? 'not set'}.`, {
      expectedWholesaleUnitPriceCents: input.expectedWholesaleUnitPriceCents,
      wholesaleUnitPriceCents: wholesale,
      currencyCode: q.allocation.currency_code,
    });
  }
  return null;
}
