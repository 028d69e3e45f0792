import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { ENGINE, useTestApp } from '../../../../test/harness.js';
import { productionScenario } from '../../../../test/production.js';
import { recordStatements } from '../../../../test/stored.js';
import { sellerAllocationsOn } from '../../allocations/availability.service.js';
import { isProductVisible } from '../../catalog/visibility.repo.js';
import { livePromotions, type PromotionRow } from '../../promotions/promotions.repo.js';
import { bestPromotion } from '../../promotions/promotions.service.js';
import { skuForCheckout } from './checkout.repo.js';
import { hotReads } from './hot-reads.js';
import { readTogether } from './hot-reads.repo.js';
import { quoteLine } from './quote.service.js';

const t = useTestApp();
afterEach(() => vi.restoreAllMocks());

const ENV = 'production';
const HOUR = 3_600_000;
const byId = (rows: PromotionRow[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));

/**
 * A seller with, on one visible SKU, an active and a paused allocation (and another company's
 * allocation), promotions live and not (public, a deal, one declined, one awaiting acceptance,
 * one accepted, expired, future, another seller's deal, another environment), and a product of
 * the same publisher it does not see, with an allocation of its own.
 */
async function world() {
  const s = await productionScenario(t);
  const now = t.ctx.clock.now();
  const db = t.ctx.db;
  const active = await db
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', s.allocationId)
    .executeTakeFirstOrThrow();
  const hidden = await admin(t, 'POST', '/products', {
    publisherCompanyId: s.publisherId,
    name: 'Hidden Game',
    slug: `hidden-${s.skuCode.toLowerCase()}`,
    status: 'active',
    shortDescription: { en: 'Hidden' },
  });
  const release = await admin(t, 'POST', `/products/${hidden.id}/releases`, {
    name: 'Std',
    state: 'available',
  });
  const hiddenSku = await admin(t, 'POST', `/releases/${release.id}/skus`, {
    code: `${s.skuCode}-H`,
    platform: 'steam',
  });
  const allocation = (id: string, patch: Record<string, unknown>) => ({
    ...active,
    id: `${s.allocationId}-${id}`,
    readable_id: `${active.readable_id}-${id}`,
    ...patch,
  });
  await db
    .insertInto('allocations')
    .values([
      allocation('paused', {
        status: 'paused',
        created_at: active.created_at - 1_000,
        price_per_key_cents: null,
        currency_code: null,
        currency_exponent: null,
        low_stock_threshold: 5,
        refund_policy: JSON.stringify({ windowDays: 14 }),
        auto_approve_max: 10,
        replacement_policy: JSON.stringify({ maxPerOrder: 2, windowDays: 30 }),
        quantity_pulled: 7,
      }),
      allocation('other', { seller_company_id: s.publisherId, status: 'active' }),
      allocation('hidden', { sku_id: hiddenSku.id, created_at: active.created_at - 2_000 }),
    ])
    .execute();
  const promotion = (id: string, patch: Record<string, unknown>) => ({
    id: `${s.skuId}-${id}`,
    publisher_company_id: s.publisherId,
    environment: ENV,
    source_type: 'promotion' as const,
    product_id: null,
    sku_id: s.skuId,
    seller_company_id: null,
    discount_percent: 10,
    requires_acceptance: 0,
    starts_at: now - HOUR,
    ends_at: now + HOUR,
    created_at: now - 2 * HOUR,
    updated_at: now - 2 * HOUR,
    ...patch,
  });
  await db
    .insertInto('promotions')
    .values([
      promotion('public', {}),
      promotion('deal', {
        source_type: 'deal',
        seller_company_id: s.sellerId,
        product_id: s.productId,
        sku_id: null,
        discount_percent: 25,
        requires_acceptance: 1,
      }),
      promotion('declined', { discount_percent: 40 }),
      promotion('awaiting', { discount_percent: 35, requires_acceptance: 1 }),
      promotion('expired', { discount_percent: 50, ends_at: now }),
      promotion('future', { discount_percent: 50, starts_at: now + 1 }),
      promotion('elsewhere', { source_type: 'deal', seller_company_id: s.publisherId, discount_percent: 50 }),
      promotion('sandbox', { environment: 'sandbox', discount_percent: 50 }),
      promotion('hidden', { sku_id: hiddenSku.id }),
    ])
    .execute();
  await db
    .insertInto('promotion_responses')
    .values([
      {
        promotion_id: `${s.skuId}-deal`,
        seller_company_id: s.sellerId,
        response: 'accepted',
        responded_at: now - 10,
      },
      {
        promotion_id: `${s.skuId}-declined`,
        seller_company_id: s.sellerId,
        response: 'declined',
        responded_at: now - 20,
      },
      {
        promotion_id: `${s.skuId}-public`,
        seller_company_id: s.publisherId,
        response: 'declined',
        responded_at: now - 30,
      },
    ])
    .execute();
  return {
    s,
    now,
    hidden: { productId: hidden.id as string, skuId: hiddenSku.id as string, skuCode: `${s.skuCode}-H` },
  };
}

/** The three reads as quoteLine made them before they became one statement. */
async function readSeparately(sellerId: string, sku: { id: string; product_id: string }, now: number) {
  const [visible, allocations, promotionRows] = await Promise.all([
    isProductVisible(t.ctx.db, sellerId, ENV, sku.product_id, now),
    sellerAllocationsOn(t.ctx.db, sellerId, ENV, [sku.id]),
    livePromotions(t.ctx.db, { sellerId, environment: ENV, skuId: sku.id, productId: sku.product_id, now }),
  ]);
  return { visible, allocations, promotionRows: byId(promotionRows) };
}

describe('the quote reads visibility, allocations and promotions', () => {
  it.runIf(ENGINE === 'postgres')(
    'in one statement with the same results as the separate reads',
    async () => {
      const { s, now, hidden } = await world();
      const seen = { id: s.skuId, product_id: s.productId };
      const apart = await readSeparately(s.sellerId, seen, now);
      const together = await readTogether(t.ctx.db, { sellerId: s.sellerId, environment: ENV, now }, seen);
      expect({ ...together, promotionRows: byId(together.promotionRows) }).toStrictEqual({
        ...apart,
        version: expect.any(Number),
      });

      // The fixture is what it claims: both allocations newest first, every column of each read
      // given at least once (so the JSON of every column type is compared), four live promotions.
      expect(apart.visible).toBe(true);
      expect(apart.allocations.map((a) => a.status)).toEqual(['active', 'paused']);
      for (const rows of [apart.allocations, apart.promotionRows] as Record<string, unknown>[][]) {
        for (const column of Object.keys(rows[0]!))
          expect(
            rows.some((r) => r[column] !== null),
            column,
          ).toBe(true);
      }
      expect(apart.promotionRows.map((p) => p.id.slice(s.skuId.length + 1)).sort()).toEqual([
        'awaiting',
        'deal',
        'declined',
        'public',
      ]);
      expect(bestPromotion(together.promotionRows)).toMatchObject({
        sourceType: 'deal',
        discountPercent: 25,
      });

      const unseen = { id: hidden.skuId, product_id: hidden.productId };
      const hiddenApart = await readSeparately(s.sellerId, unseen, now);
      const hiddenTogether = await readTogether(
        t.ctx.db,
        { sellerId: s.sellerId, environment: ENV, now },
        unseen,
      );
      expect(hiddenApart.visible).toBe(false);
      expect(hiddenApart.allocations).toHaveLength(1);
      expect(hiddenApart.promotionRows).toHaveLength(1);
      expect({ ...hiddenTogether, promotionRows: byId(hiddenTogether.promotionRows) }).toStrictEqual({
        ...hiddenApart,
        version: expect.any(Number),
      });
    },
  );

  it('hands the quote what the separate reads return, fresh and cached, as time passes', async () => {
    const { s, now, hidden } = await world();
    for (const countersProven of [false, true]) {
      // At now + 1 the future promotion has started: the cached entry, loaded at now, has it.
      for (const at of [now, now + 1]) {
        const target = { sellerId: s.sellerId, environment: ENV, now: at, countersProven };
        for (const skuCode of [s.skuCode, hidden.skuCode]) {
          const sku = await skuForCheckout(t.ctx.db, ENV, skuCode);
          const apart = await readSeparately(s.sellerId, sku!, at);
          for (const _ of ['loads the SKU', 'serves it from the cache']) {
            const hot = await hotReads(t.ctx, { ...target, skuCode });
            expect(hot.sku).toStrictEqual(sku);
            expect(hot.visible).toBe(apart.visible);
            // Not visible: the quote stops there, and SQLite does not read the rest.
            if (!apart.visible) continue;
            expect(hot.allocations).toStrictEqual(apart.allocations);
            expect(byId(hot.promotionRows)).toStrictEqual(apart.promotionRows);
          }
        }
        const missing = await hotReads(t.ctx, { ...target, skuCode: 'NO-SUCH-SKU' });
        expect(missing.sku).toBeUndefined();
      }
    }
    const live = await hotReads(t.ctx, {
      sellerId: s.sellerId,
      environment: ENV,
      now: now + 1,
      countersProven: true,
      skuCode: s.skuCode,
    });
    expect(live.promotionRows.map((p) => p.id.slice(s.skuId.length + 1))).toContain('future');
  });

  it.runIf(ENGINE === 'postgres')('in the steady state, in one round trip', async () => {
    const s = await productionScenario(t);
    const quote = () =>
      quoteLine(
        t.ctx,
        { sellerId: s.sellerId, environment: ENV, apiKeyId: s.seller.keyId },
        { skuCode: s.skuCode, quantity: 1, countryCode: 'US', currencyCode: 'USD' },
        'preview',
      );
    const first = await quote();
    const statements = recordStatements(t);
    const second = await quote();
    expect(second.price).toEqual(first.price);
    expect(second.allocation).toEqual(first.allocation);
    expect(statements()).toHaveLength(1);
    expect(statements()[0]).toMatch(/^select \(select "version" from "catalog_version"/);
  });
});
