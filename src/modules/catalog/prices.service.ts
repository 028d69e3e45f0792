import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { isoOf } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { emit } from '../events/index.js';
import * as repo from './catalog.repo.js';
import { changeProduct } from './catalog-changes.service.js';
import { effectivePrices } from './pricing.js';
import { priceRowsOf } from './pricing.repo.js';
import { requireProduct, touchProduct } from './products.service.js';
import { requireRelease } from './releases.service.js';

export interface TerritoryPriceInput {
  countryCode: string;
  currencyCode: string;
  /** Null removes the country's price in this currency from effectiveAt on. */
  listPriceCents: number | null;
  srpMinCents?: number | null;
  srpMaxCents?: number | null;
  /** Defaults to now; a future instant schedules the change. */
  effectiveAt?: number;
}

/**
 * Sets (or removes, or schedules) the list price of a release in one country and currency.
 * Every SKU of the release gets its own `sku.pricing_updated`, with the previous and new price.
 */
export async function setTerritoryPrice(
  ctx: AppContext,
  trx: Executor,
  releaseId: string,
  input: TerritoryPriceInput,
) {
  const release = await requireRelease(trx, releaseId);
  const product = await requireProduct(trx, release.product_id);
  const country = input.countryCode.toUpperCase();
  const currency = input.currencyCode.toUpperCase();
  const now = ctx.clock.now();
  const effectiveAt = input.effectiveAt ?? now;
  if (input.srpMinCents != null && input.srpMaxCents != null && input.srpMinCents > input.srpMaxCents) {
    throw fail('VALIDATION_FAILED', 'srpMinCents must not exceed srpMaxCents.', {
      issues: [{ field: 'srpMinCents', in: 'body', message: 'must be <= srpMaxCents', keyword: 'maximum' }],
    });
  }
  const history = await priceRowsOf(trx, releaseId, country, currency);
  const previous = effectivePrices(history, effectiveAt).get(`${releaseId}:${country}:${currency}`) ?? null;
  const diff = await changeProduct(ctx, trx, product, ['pricing'], async () => {
    await repo.insertPrice(trx, {
      id: uuidv7(now),
      release_id: releaseId,
      country_code: country,
      currency_code: currency,
      list_price_cents: input.listPriceCents,
      srp_min_cents: input.srpMinCents ?? null,
      srp_max_cents: input.srpMaxCents ?? null,
      effective_at: effectiveAt,
      created_at: now,
    });
    await touchProduct(trx, product.id, now);
  });
  const skus = await repo.skusOfRelease(trx, releaseId);
  for (const sku of skus) {
    await emit(ctx, trx, [...diff.kept, ...diff.added], 'sku.pricing_updated', {
      skuCode: sku.code,
      countryCode: country,
      currencyCode: currency,
      unitPriceCents: input.listPriceCents,
      effectiveAt: isoOf(effectiveAt),
      previousPricing: previous ? { priceCents: previous.listPriceCents, currencyCode: currency } : null,
      newPricing:
        input.listPriceCents === null ? null : { priceCents: input.listPriceCents, currencyCode: currency },
    });
  }
  await ctx.grants.refreshForPublisher(
    trx,
    product.publisher_company_id,
    product.environment,
    skus.map((s) => s.id),
  );
  return {
    releaseId,
    countryCode: country,
    currencyCode: currency,
    listPriceCents: input.listPriceCents,
    effectiveAt,
  };
}

const DECIMAL = /^(0|[1-9]\d{0,9})(\.\d{1,12})?$/;

/** Reference exchange rate for the SRP floor: units of the currency per US dollar, as a decimal string. */
export async function setReferenceRate(
  ctx: AppContext,
  currencyCode: string,
  unitsPerUsd: string,
  ex: Executor,
) {
  if (!DECIMAL.test(unitsPerUsd) || Number(unitsPerUsd) === 0) {
    throw fail('VALIDATION_FAILED', 'unitsPerUsd must be a positive decimal string such as "0.92".', {
      issues: [{ field: 'unitsPerUsd', in: 'body', message: 'positive decimal string', keyword: 'pattern' }],
    });
  }
  const currency = currencyCode.toUpperCase();
  await repo.upsertReferenceRate(ex, currency, unitsPerUsd, ctx.clock.now());
  return { currencyCode: currency, unitsPerUsd };
}
