import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { isChurnedAway } from '../allocations/sellability.js';
import { computeSellability } from '../allocations/sellability.service.js';
import { visibleProductIds } from '../catalog/visibility.repo.js';
import { MAGIC_SKUS } from './fixtures.js';
import { ensureSandboxProvisioned, seedSandboxCatalog } from './sandbox.service.js';

const t = useTestApp();

async function skuIds() {
  const rows = await t.ctx.db
    .selectFrom('skus')
    .select(['id', 'code'])
    .where('code', 'like', 'SANDBOX-%')
    .execute();
  return new Map(rows.map((r) => [r.code, r.id]));
}

describe('sandbox fixture catalog', () => {
  it('seeds every magic SKU once; seeding again changes nothing', async () => {
    const first = await seedSandboxCatalog(t.ctx);
    const second = await seedSandboxCatalog(t.ctx);
    expect(first.created.sort()).toEqual(MAGIC_SKUS.map((m) => m.code).sort());
    expect(second.created).toEqual([]);
    expect((await skuIds()).size).toBe(MAGIC_SKUS.length);
  });

  it('provisions a sandbox seller: each magic SKU gated as its name says', async () => {
    await seedSandboxCatalog(t.ctx);
    const seller = await makeSeller(t);
    await ensureSandboxProvisioned(t.ctx, seller.company.id);
    await ensureSandboxProvisioned(t.ctx, seller.company.id);
    const ids = await skuIds();
    const result = await computeSellability(t.ctx, t.ctx.db, seller.company.id, 'sandbox', [...ids.values()]);
    const of = (code: string) => result.get(ids.get(code)!)!;
    expect(of('SANDBOX-ALWAYS-001').sellable).toBe(true);
    expect(of('SANDBOX-STD-001').sellable).toBe(true);
    expect(of('SANDBOX-NOALLOC-001').readinessBlockers).toEqual(['NO_ALLOCATION']);
    expect(of('SANDBOX-NOSHARE-001').readinessBlockers).toContain('NO_SKU_SHARE');
    expect(of('SANDBOX-LIFECYCLE-001').readinessBlockers).toEqual(['LIFECYCLE_NOT_LIVE']);
    expect(of('SANDBOX-PREORDER-001').readinessBlockers).toEqual(['LIFECYCLE_NOT_LIVE']);

    const visible = await visibleProductIds(t.ctx.db, seller.company.id, 'sandbox', t.ctx.clock.now());
    const products = await t.ctx.db
      .selectFrom('skus')
      .select(['code', 'product_id'])
      .where('code', 'like', 'SANDBOX-%')
      .execute();
    const productOf = (code: string) => products.find((p) => p.code === code)!.product_id;
    expect(visible.has(productOf('SANDBOX-NOSHARE-001'))).toBe(false);
    expect(visible.has(productOf('SANDBOX-NOALLOC-001'))).toBe(true);
    expect(visible.has(productOf('SANDBOX-PREORDER-001'))).toBe(true);

    const pools = await t.ctx.db
      .selectFrom('key_pools')
      .innerJoin('skus', 'skus.id', 'key_pools.sku_id')
      .select([
        'skus.code',
        'key_pools.kind',
        'key_pools.replenish_mode',
        'key_pools.pinned_available',
        'key_pools.id',
      ])
      .execute();
    expect(pools.find((p) => p.code === 'SANDBOX-LOWSTOCK-001')).toMatchObject({
      replenish_mode: 'pinned',
      pinned_available: 3,
    });
    const std = pools.find((p) => p.code === 'SANDBOX-STD-001' && p.kind === 'dedicated')!;
    const stdKeys = await t.ctx.db
      .selectFrom('game_keys')
      .select('ciphertext')
      .where('pool_id', '=', std.id)
      .execute();
    expect(stdKeys).toHaveLength(25);
    expect(t.ctx.secrets!.open(stdKeys[0]!.ciphertext)).toMatch(/^SBX-STD-[0-9A-Z]{12}$/);
  });

  it('never lets a production seller see sandbox products', async () => {
    await seedSandboxCatalog(t.ctx);
    const seller = await makeSeller(t, { environment: 'production' });
    expect((await visibleProductIds(t.ctx.db, seller.company.id, 'production', t.ctx.clock.now())).size).toBe(
      0,
    );
    const sandboxProducts = await t.ctx.db
      .selectFrom('products')
      .select('environment')
      .where('slug', 'like', 'sandbox-%')
      .execute();
    expect(new Set(sandboxProducts.map((p) => p.environment))).toEqual(new Set(['sandbox']));
  });

  it('alternates the churn fixture live and archived every 6 hours of the service clock', async () => {
    await seedSandboxCatalog(t.ctx);
    const seller = await makeSeller(t);
    await ensureSandboxProvisioned(t.ctx, seller.company.id);
    const churn = (await skuIds()).get('SANDBOX-CHURN-001')!;
    const states: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      states.push(
        (await computeSellability(t.ctx, t.ctx.db, seller.company.id, 'sandbox', [churn])).get(churn)!
          .sellable,
      );
      t.ctx.testClock!.advance(6 * 3600);
    }
    expect(states[0]).not.toBe(states[1]);
    expect(states[0]).toBe(states[2]);
    expect(states[1]).toBe(states[3]);
  });
});

describe('the churn fixture in the catalog reads', () => {
  it('is left out of pages, the checksum and availability while archived, and back when live', async () => {
    await seedSandboxCatalog(t.ctx);
    const seller = await makeSeller(t);
    const churnSku = await t.ctx.db
      .selectFrom('skus')
      .select('product_id')
      .where('code', '=', 'SANDBOX-CHURN-001')
      .executeTakeFirstOrThrow();
    const read = (url: string) =>
      call(t, { method: 'GET', url: `/api/seller/v1${url}`, headers: seller.auth });
    const allPages = async () => {
      const ids: string[] = [];
      let url: string | null = '/api/seller/v1/products?limit=1';
      while (url) {
        const result = await call(t, { method: 'GET', url, headers: seller.auth });
        ids.push(...result.body.data.map((p: { id: string }) => p.id));
        url = result.body.meta.nextUrl;
      }
      return ids;
    };
    if (!isChurnedAway(6, t.ctx.clock.now())) t.ctx.testClock!.advance(6 * 3600);
    const archived = await allPages();
    expect(archived).not.toContain(churnSku.product_id);
    expect(archived.length).toBe((await read('/catalog/checksum')).body.data.productCount);
    expect((await read('/availability?skuCode=SANDBOX-CHURN-001')).status).toBe(404);

    t.ctx.testClock!.advance(6 * 3600);
    const live = await allPages();
    expect(live).toContain(churnSku.product_id);
    expect(live.length).toBe(archived.length + 1);
    expect((await read('/availability?skuCode=SANDBOX-CHURN-001')).status).toBe(200);
  });
});

describe('sandbox provisioning under concurrency', () => {
  it('provisions a new sandbox seller once when its first requests arrive together', async () => {
    const seller = await makeSeller(t);
    await Promise.all(Array.from({ length: 20 }, () => ensureSandboxProvisioned(t.ctx, seller.company.id)));
    const allocations = await t.ctx.db
      .selectFrom('allocations')
      .select('sku_id')
      .where('seller_company_id', '=', seller.company.id)
      .execute();
    expect(allocations.length).toBe(new Set(allocations.map((a) => a.sku_id)).size);
    expect(allocations.length).toBe(MAGIC_SKUS.filter((m) => m.allocated).length);
  });
});

describe('the sandbox hot-drop fixtures', () => {
  const post = (seller: { auth: Record<string, string> }, url: string, body: unknown, key: string) =>
    call(t, {
      method: 'POST',
      url: `/api/seller/v1${url}`,
      headers: { ...seller.auth, 'idempotency-key': key },
      payload: body as Record<string, unknown>,
    });
  const reserve = (seller: { auth: Record<string, string> }, skuCode: string, quantity: number, n: number) =>
    post(
      seller,
      '/orders/reserve',
      {
        skuCode,
        quantity,
        countryCode: 'US',
        expectedUnitPriceCents: 1999,
        orderReference: `hd-${skuCode}-${n}`,
      },
      `r-${skuCode}-${n}`,
    );

  it('reserves and commits SANDBOX-HOTDROP-001 with a sandbox key; the replenished pool never runs dry', async () => {
    const seller = await makeSeller(t);
    const reservations: string[] = [];
    for (let i = 0; i < 12; i++) {
      const result = await reserve(seller, 'SANDBOX-HOTDROP-001', 10, i);
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      reservations.push(result.body.data.reservationId);
    }
    const committed = await post(
      seller,
      '/orders/commit',
      {
        reservationId: reservations[0],
        integrationOrderContext: {
          salesCountryCode: 'US',
          salesChannel: 'web',
          salesTaxRatePercent: 0,
          salesPriceGrossMinor: 2499,
        },
      },
      'commit-0',
    );
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.data.keys).toHaveLength(10);
    expect(committed.body.data.keys[0]).toMatch(/^SBX-HOTDROP-/);
  });

  it("are named in whoami's sandbox notes and the /docs sandbox table", async () => {
    const seller = await makeSeller(t);
    const me = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    const skus = me.body.data.sandboxNotes.magicSkus.map((m: { skuCode: string }) => m.skuCode);
    expect(skus).toEqual(expect.arrayContaining(['SANDBOX-HOTDROP-001', 'SANDBOX-HOTDROP-LIMITED-001']));
    expect(me.body.data.sandboxNotes.docUrl).toMatch(/\/docs#section\/Sandbox$/);
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.body).toContain('SANDBOX-HOTDROP-LIMITED-001');
    const production = await makeSeller(t, { environment: 'production' });
    const live = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { ...production.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    expect(live.body.data.sandboxNotes).toBeNull();
  });

  it('sells out SANDBOX-HOTDROP-LIMITED-001 after 5 keys: 409 SOLD_OUT', async () => {
    const seller = await makeSeller(t);
    expect((await reserve(seller, 'SANDBOX-HOTDROP-LIMITED-001', 5, 0)).status).toBe(200);
    const refused = await reserve(seller, 'SANDBOX-HOTDROP-LIMITED-001', 1, 1);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe('SOLD_OUT');
  });
});
