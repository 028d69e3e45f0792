import { type ApiError, type ErrorCode, fail } from '../../../http/errors.js';
import { convertMinorCeil } from '../../../lib/money.js';
import type { EffectivePrice } from '../../catalog/index.js';
import type { IntegrationOrderContext } from '../checkout.schemas.js';

/** The in-force API agreement's commercial schedule, parsed. */
export interface Schedule {
  currencyMode: string;
  currencyDetail: Record<string, string[] | 'territory'>;
  permittedChannels: string;
  marketplaceSlugs: string[];
  consumerGeoPolicy: string;
  regionLocks: string[];
}

export interface CommercialFacts {
  country: string;
  /** null when neither the seller nor the catalog names one: the pricing check refuses. */
  currency: string | null;
  /** null: no footprint declared and the environment does not require one (sandbox). */
  footprint: { countries: string[]; currencies: string[] } | null;
  schedule: Schedule;
  /** Effective catalog prices of the SKU's release for `country`, by currency. */
  prices: ReadonlyMap<string, EffectivePrice>;
  /** The buyer's price per key net of tax, when declared (or the settlement price of a secondary sale). */
  saleNetMinor: number | null;
  unitsPerUsd: (currency: string) => string | undefined;
  geo: { declaredCountry: string; detectedCountry: string | null; mismatch: boolean };
}

export interface CommercialResult {
  /** A secondary-currency sale: in a currency the catalog does not price for the country. */
  secondaryCurrency: boolean;
  /** The catalog price the sale is bound to: in the sale currency, else the country's list price. */
  listPrice: EffectivePrice;
}

const FOOTPRINT_URL = '/api/seller/v1/me/footprint';

interface DeclarationIssue {
  field: string;
  in: 'body';
  message: string;
  keyword: 'required';
  code: ErrorCode;
}

const missing = (field: string, code: ErrorCode, message = 'is required'): DeclarationIssue => ({
  field,
  in: 'body',
  message,
  keyword: 'required',
  code,
});

/**
 * The declarations a production (and sandbox) checkout must carry, checked before any key
 * moves. Every missing one is named at once in `details.issues` (each with its code); the
 * answer's code is the first of them, in the order they are checked here. A missing price bind
 * (`expectedUnitPriceCents` or `priceCommitmentToken`) joins the list when it is not alone.
 * Null when nothing is missing.
 */
export function declarationsRefusal(
  context: IntegrationOrderContext | undefined,
  production: boolean,
  priceBound = true,
): ApiError | null {
  const issues: DeclarationIssue[] = [];
  const field = (name: string) => `integrationOrderContext.${name}`;
  for (const name of ['salesTaxRatePercent', 'salesPriceGrossMinor'] as const) {
    if (context?.[name] === undefined) issues.push(missing(field(name), 'TAX_DECLARATION_REQUIRED'));
  }
  if (!context?.salesCountryCode) issues.push(missing(field('salesCountryCode'), 'SALES_COUNTRY_REQUIRED'));
  if (!context?.salesChannel) issues.push(missing(field('salesChannel'), 'SALES_CHANNEL_REQUIRED'));
  if (production && !context?.consumerIp) {
    issues.push(missing(field('consumerIp'), 'VALIDATION_FAILED', 'is required on production checkout'));
  }
  const first = issues[0];
  if (!first) return null;
  if (!priceBound) {
    issues.push(
      missing(
        'expectedUnitPriceCents',
        'EXPECTED_UNIT_PRICE_REQUIRED',
        'is required (or priceCommitmentToken)',
      ),
    );
  }
  // `details.missing` is the message's list, field for field: one answer, one list of what to add.
  const missingFields = issues.map((i) => i.field);
  return fail(
    first.code,
    `The order lacks ${issues.length === 1 ? 'a declaration' : 'declarations'}: ${missingFields.join(', ')}.`,
    { missing: missingFields, issues },
  ).withHint(`Add ${missingFields.join(', ')} and send the order again; nothing was sold.`);
}

/** The sales channel must be one the agreement's schedule permits: the refusal, or null. */
export function channelRefusal(channel: string | undefined, schedule: Schedule): ApiError | null {
  if (!channel) return null;
  const own = ['web', 'mobile_app', 'partner_embed'];
  const marketplaces =
    schedule.permittedChannels === 'own_storefront_plus_named_marketplaces'
      ? schedule.marketplaceSlugs.map((s) => `marketplace:${s}`)
      : [];
  const permitted = [...own, ...marketplaces];
  if (!permitted.includes(channel)) {
    return fail(
      'SALES_CHANNEL_NOT_PERMITTED',
      `Sales channel ${channel} is not permitted by your agreement.`,
      {
        salesChannel: channel,
        permittedChannels: schedule.permittedChannels,
        permittedChannelList: permitted,
        consoleAction: 'review_partner_contracts',
      },
    );
  }
  return null;
}

/** Whether the schedule lets the seller sell in `currency` into `country`; null when it does. */
function termRefusal(schedule: Schedule, country: string, currency: string, catalogPriced: boolean) {
  if (schedule.currencyMode !== 'custom') return catalogPriced ? null : 'currency_not_priced';
  const detail = schedule.currencyDetail[currency];
  if (detail === undefined) return 'currency_not_permitted';
  if (detail === 'territory' || detail.includes(country)) return null;
  return 'currency_not_permitted_for_country';
}

/**
 * The commercial checks, in their order: footprint country, footprint currency, agreement currency,
 * catalog pricing, reference-rate floor, region locks, consumer geo. The first failing check names
 * the code: its refusal is the answer.
 */
export function checkCommercial(f: CommercialFacts): CommercialResult | ApiError {
  const { country, currency } = f;
  if (f.footprint && !f.footprint.countries.includes(country)) {
    return fail('FOOTPRINT_COUNTRY_NOT_DECLARED', `${country} is not in your declared selling footprint.`, {
      countryCode: country,
      fixItUrl: FOOTPRINT_URL,
    });
  }
  if (f.footprint && currency && !f.footprint.currencies.includes(currency)) {
    return fail('FOOTPRINT_CURRENCY_NOT_DECLARED', `${currency} is not in your declared selling footprint.`, {
      currencyCode: currency,
      fixItUrl: FOOTPRINT_URL,
    });
  }
  const priced = currency ? f.prices.get(currency) : undefined;
  const reason = currency ? termRefusal(f.schedule, country, currency, priced !== undefined) : null;
  if (reason && reason !== 'currency_not_priced') {
    return fail(
      'CURRENCY_NOT_PERMITTED_BY_TERM',
      `Your agreement does not permit ${currency} sales into ${country}.`,
      {
        reason,
        countryCode: country,
        currencyCode: currency,
        consoleAction: 'review_partner_contracts',
      },
    );
  }
  const list = priced ?? [...f.prices.values()].sort((a, b) => (a.currencyCode < b.currencyCode ? -1 : 1))[0];
  if (!list) {
    return fail('CATALOG_PRICE_NOT_SET', `The publisher has no price for ${country}.`, {
      countryCode: country,
    });
  }
  const secondaryCurrency = priced === undefined;
  if (
    secondaryCurrency &&
    (reason === 'currency_not_priced' || (currency && f.schedule.currencyDetail[currency] === 'territory'))
  ) {
    return fail('CURRENCY_NOT_PRICED_FOR_COUNTRY', `The catalog has no ${currency} price for ${country}.`, {
      countryCode: country,
      currencyCode: currency,
      pricedCurrencies: [...f.prices.keys()].sort(),
    });
  }
  const belowFloor = floorRefusal(f, list);
  if (belowFloor) return belowFloor;
  if (f.schedule.regionLocks.includes(country)) {
    return fail('REGION_LOCKED', `The publisher locks ${country} for your agreement.`, {
      countryCode: country,
      countries: f.schedule.regionLocks,
      consoleAction: 'review_partner_contracts',
    });
  }
  if (f.geo.mismatch && f.schedule.consumerGeoPolicy === 'refuse') {
    return fail(
      'CONSUMER_GEO_MISMATCH_POLICY_REFUSED',
      "The buyer's detected country differs from the declared one and the agreement refuses such sales.",
      { declaredCountry: f.geo.declaredCountry, detectedCountry: f.geo.detectedCountry },
    );
  }
  return { secondaryCurrency, listPrice: list };
}

/** The SRP floor (lower list-price band) converted into the sale currency at the reference rate. */
function floorRefusal(f: CommercialFacts, list: EffectivePrice): ApiError | null {
  const currency = f.currency ?? list.currencyCode;
  const band = list.srpMinCents;
  if (band === null || f.saleNetMinor === null) return null;
  const floorMinor = convertMinorCeil(band, list.currencyCode, currency, f.unitsPerUsd);
  if (floorMinor === null) {
    return fail(
      'CURRENCY_NOT_PRICED_FOR_COUNTRY',
      `No reference rate converts ${list.currencyCode} to ${currency}.`,
      {
        countryCode: f.country,
        currencyCode: currency,
        reason: 'no_reference_rate',
      },
    );
  }
  if (f.saleNetMinor < floorMinor) {
    return fail(
      'SRP_MISMATCH_FOR_CURRENCY',
      `The sale price is below the list-price floor of ${floorMinor} ${currency}.`,
      {
        floorMinor,
        currencyCode: currency,
        saleNetMinor: f.saleNetMinor,
      },
    );
  }
  return null;
}
