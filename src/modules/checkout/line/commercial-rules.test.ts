import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../http/errors.js';
import { convertMinorCeil, discounted } from '../../../lib/money.js';
import type { EffectivePrice } from '../../catalog/pricing.js';
import { type CommercialFacts, channelRefusal, checkCommercial, type Schedule } from './commercial-rules.js';
import { settle } from './settlement.js';

const price = (
  currencyCode: string,
  listPriceCents: number,
  srpMinCents: number | null = null,
): EffectivePrice => ({
  releaseId: 'r',
  countryCode: 'DE',
  currencyCode,
  listPriceCents,
  srpMinCents,
  srpMaxCents: null,
  effectiveAt: 0,
});

const schedule: Schedule = {
  currencyMode: 'custom',
  currencyDetail: { EUR: 'territory', CHF: ['DE'], USD: ['US'] },
  permittedChannels: 'own_storefront',
  marketplaceSlugs: [],
  consumerGeoPolicy: 'refuse',
  regionLocks: [],
};

const facts = (overrides: Partial<CommercialFacts> = {}): CommercialFacts => ({
  country: 'DE',
  currency: 'EUR',
  footprint: { countries: ['DE'], currencies: ['EUR', 'CHF', 'USD', 'GBP'] },
  schedule,
  prices: new Map([['EUR', price('EUR', 1999, 1500)]]),
  saleNetMinor: 1800,
  unitsPerUsd: (c) => ({ EUR: '0.9', CHF: '0.8' })[c],
  geo: { declaredCountry: 'DE', detectedCountry: 'DE', mismatch: false },
  ...overrides,
});

const codeOf = (f: CommercialFacts) => {
  const judged = checkCommercial(f);
  return judged instanceof ApiError ? judged.code : null;
};

describe('the commercial checks of a checkout line', () => {
  it('names the first failing check, in the fixed order of the checks', () => {
    // Every check fails at once: each fix reveals the next code in order.
    let f = facts({
      country: 'FR',
      currency: 'GBP',
      footprint: { countries: ['DE'], currencies: ['EUR'] },
      prices: new Map(),
      schedule: { ...schedule, regionLocks: ['FR'] },
      geo: { declaredCountry: 'FR', detectedCountry: 'DE', mismatch: true },
    });
    expect(codeOf(f)).toBe('FOOTPRINT_COUNTRY_NOT_DECLARED');
    f = { ...f, footprint: { countries: ['FR'], currencies: ['EUR'] } };
    expect(codeOf(f)).toBe('FOOTPRINT_CURRENCY_NOT_DECLARED');
    f = { ...f, footprint: { countries: ['FR'], currencies: ['GBP', 'EUR'] } };
    expect(codeOf(f)).toBe('CURRENCY_NOT_PERMITTED_BY_TERM');
    f = { ...f, currency: 'EUR' };
    expect(codeOf(f)).toBe('CATALOG_PRICE_NOT_SET');
    f = { ...f, prices: new Map([['USD', price('USD', 1999)]]) };
    expect(codeOf(f)).toBe('CURRENCY_NOT_PRICED_FOR_COUNTRY');
    f = { ...f, prices: new Map([['EUR', price('EUR', 1999, 1900)]]) };
    expect(codeOf(f)).toBe('SRP_MISMATCH_FOR_CURRENCY');
    f = { ...f, saleNetMinor: 1900 };
    expect(codeOf(f)).toBe('REGION_LOCKED');
    f = { ...f, schedule: { ...f.schedule, regionLocks: [] } };
    expect(codeOf(f)).toBe('CONSUMER_GEO_MISMATCH_POLICY_REFUSED');
    f = { ...f, schedule: { ...f.schedule, consumerGeoPolicy: 'flag' } };
    expect(codeOf(f)).toBeNull();
  });

  it('says why a currency is not permitted, and allows a secondary-currency sale the term names', () => {
    const unpermitted = checkCommercial(facts({ country: 'FR', currency: 'CHF', footprint: null }));
    expect(unpermitted).toBeInstanceOf(ApiError);
    expect((unpermitted as ApiError).details).toMatchObject({ reason: 'currency_not_permitted_for_country' });
    const secondary = checkCommercial(facts({ currency: 'CHF', saleNetMinor: 1334 }));
    expect(secondary).toMatchObject({ secondaryCurrency: true, listPrice: { currencyCode: 'EUR' } });
    const belowFloor = checkCommercial(facts({ currency: 'CHF', saleNetMinor: 1333 }));
    expect(belowFloor).toBeInstanceOf(ApiError);
    // 1500 EUR cents at 0.8 CHF / 0.9 EUR per USD = 1333.33 -> floor rounds up to 1334
    expect((belowFloor as ApiError).details).toMatchObject({ floorMinor: 1334, currencyCode: 'CHF' });
  });

  it('permits own-storefront channels and named marketplaces only', () => {
    expect(channelRefusal('web', schedule)).toBeNull();
    expect(channelRefusal('marketplace:acme', schedule)?.code).toBe('SALES_CHANNEL_NOT_PERMITTED');
    const named = {
      ...schedule,
      permittedChannels: 'own_storefront_plus_named_marketplaces',
      marketplaceSlugs: ['acme'],
    };
    expect(channelRefusal('marketplace:acme', named)).toBeNull();
  });
});

describe('money and settlement arithmetic', () => {
  it('converts through reference rates with integer arithmetic, rounding floors up', () => {
    expect(convertMinorCeil(1000, 'USD', 'JPY', (c) => (c === 'JPY' ? '150.25' : undefined))).toBe(1503);
    expect(convertMinorCeil(1000, 'EUR', 'USD', (c) => (c === 'EUR' ? '0.9' : undefined))).toBe(1112);
    expect(convertMinorCeil(1000, 'EUR', 'GBP', () => undefined)).toBeNull();
    expect(discounted(1999, 25)).toBe(1499);
    expect(discounted(1000, 12.5)).toBe(875);
  });

  it('derives VAT and net from a tax-inclusive or exclusive gross', () => {
    const geo = {
      declaredCountry: 'DE',
      detectedCountryCode: 'DE',
      countryMismatch: false,
      consumerIpHash: null,
      evidenceRank: 2 as const,
      attested: false,
    };
    expect(
      settle({ salesCountryCode: 'DE', salesTaxRatePercent: 19, salesPriceGrossMinor: 1190 }, 'EUR', geo),
    ).toMatchObject({
      netMinor: 1000,
      vatMinor: 190,
      rateReason: 'declared_rate',
      evidenceRank: 2,
    });
    expect(
      settle({ salesTaxRatePercent: 7.5, salesPriceGrossMinor: 1000, priceIncludesTax: false }, 'USD', geo),
    ).toMatchObject({
      netMinor: 1000,
      vatMinor: 75,
      basis: 'fallback_store_country',
      rateReason: 'fallback_store_country',
    });
  });
});
