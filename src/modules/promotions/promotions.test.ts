import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import { alwaysOrder, post } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { sellerGet } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const DAY = 86_400_000;

async function skuId(code: string) {
  const sku = await t.ctx.db
    .selectFrom('skus')
    .select('id')
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  return sku.id;
}

/** A promotion through the operator API; a deal when `seller` is given. */
async function promote(
  code: string,
  options: {
    seller?: TestSeller;
    percent?: number;
    from?: number;
    to?: number;
    requiresAcceptance?: boolean;
  } = {},
) {
  await sellerGet(t, options.seller ?? (await makeSeller(t)), '/whoami'); // provisions the sandbox catalog
  const now = t.ctx.clock.now();
  return admin(t, 'POST', '/promotions', {
    skuId: await skuId(code),
    sellerCompanyId: options.seller?.company.id,
    discountPercent: options.percent ?? 25,
    startsAt: new Date(options.from ?? now - 1000).toISOString(),
    endsAt: new Date(options.to ?? now + DAY).toISOString(),
    requiresAcceptance: options.requiresAcceptance,
  });
}

const preview = (seller: TestSeller, skuCode: string) =>
  post(t, seller, '/orders/preview', { skuCode, quantity: 1, countryCode: 'US' });
const respond = (seller: TestSeller, id: string, response: string) =>
  post(t, seller, `/promotions/${id}/respond`, { response });

describeRouteContract('GET /promotions', t, {
  method: 'GET',
  url: () => '/api/seller/v1/promotions',
  scopes: ['seller:promotions:read'],
  badInput: { url: '/api/seller/v1/promotions?kind=coupon' },
});
describeRouteContract('GET /promotions/calendar', t, {
  method: 'GET',
  url: () => '/api/seller/v1/promotions/calendar',
  scopes: ['seller:promotions:read'],
  badInput: { url: '/api/seller/v1/promotions/calendar?from=2026-01-01&to=2026-12-31' },
});
const dealUrl = async (_t: unknown, seller: TestSeller) => {
  const deal = await promote('SANDBOX-ALWAYS-PS5-001', { seller, requiresAcceptance: true });
  return `/api/seller/v1/promotions/${deal.id}/respond`;
};
describeRouteContract('POST /promotions/{promotionId}/respond', t, {
  method: 'POST',
  url: dealUrl,
  body: { response: 'accept' },
  scopes: ['seller:promotions:respond'],
  otherCompanyUrl: dealUrl,
  badInput: { url: '/api/seller/v1/promotions/not-a-uuid/respond' },
});

describe('deals that need acceptance', () => {
  it('apply to checkout prices only once accepted, and no longer once declined', async () => {
    const seller = await makeSeller(t);
    const deal = await promote('SANDBOX-STD-001', { seller, requiresAcceptance: true });

    const offered = await sellerGet(t, seller, '/promotions?kind=deal');
    expect(offered.body.data).toEqual([
      expect.objectContaining({
        promotionId: deal.id,
        kind: 'deal',
        state: 'running',
        requiresAcceptance: true,
        response: null,
        appliesToPrices: false,
        discountPercent: 25,
      }),
    ]);
    expect((await preview(seller, 'SANDBOX-STD-001')).body.data).toMatchObject({
      unitPriceCents: 1999,
      promo: null,
      promoResolution: 'none',
    });
    const refused = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-STD-001', expectedUnitPriceCents: 1499 }),
    );
    expectApiError(refused, 422, 'CATALOG_PRICE_MISMATCH');

    const accepted = await respond(seller, deal.id, 'accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ response: 'accepted', appliesToPrices: true });
    expect((await preview(seller, 'SANDBOX-STD-001')).body.data).toMatchObject({
      unitPriceCents: 1499,
      initialUnitPriceCents: 1999,
      promo: { sourceType: 'deal', sourceId: deal.id },
      promoResolution: 'applied',
    });
    const order = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-STD-001', expectedUnitPriceCents: 1499 }),
    );
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const sales = await sellerGet(t, seller, '/finance/api-sales');
    expect(sales.body.data[0]).toMatchObject({
      salePriceCents: 1499,
      promo: { sourceType: 'deal', sourceId: deal.id },
    });

    expect((await respond(seller, deal.id, 'decline')).body.data).toMatchObject({
      response: 'declined',
      appliesToPrices: false,
    });
    expect((await preview(seller, 'SANDBOX-STD-001')).body.data.promoResolution).toBe('none');
  });

  it('refuses an answer to a promotion that has ended', async () => {
    const seller = await makeSeller(t);
    const now = t.ctx.clock.now();
    const ended = await promote('SANDBOX-STD-001', { seller, from: now - 2 * DAY, to: now - DAY });
    expectApiError(await respond(seller, ended.id, 'accept'), 422, 'VALIDATION_FAILED');
    const listed = await sellerGet(t, seller, '/promotions?state=all');
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ promotionId: ended.id, state: 'ended' }),
    );
    const current = await sellerGet(t, seller, '/promotions');
    expect(current.body.data.map((p: { promotionId: string }) => p.promotionId)).not.toContain(ended.id);
  });
});

describe('promotion shares', () => {
  it('apply to every seller that sees the product until one declines it for itself', async () => {
    const share = await promote('SANDBOX-LOWSTOCK-001', { percent: 10 });
    const decliner = await makeSeller(t);
    const keeper = await makeSeller(t);
    const listed = await sellerGet(t, decliner, '/promotions?kind=share');
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({
        promotionId: share.id,
        kind: 'share',
        requiresAcceptance: false,
        appliesToPrices: true,
      }),
    );
    expect((await preview(decliner, 'SANDBOX-LOWSTOCK-001')).body.data.promoResolution).toBe('applied');
    expect((await respond(decliner, share.id, 'decline')).status).toBe(200);
    expect((await preview(decliner, 'SANDBOX-LOWSTOCK-001')).body.data).toMatchObject({
      promoResolution: 'none',
      unitPriceCents: 1999,
    });
    expect((await preview(keeper, 'SANDBOX-LOWSTOCK-001')).body.data).toMatchObject({
      promoResolution: 'applied',
      unitPriceCents: 1799,
    });
  });
});

describe('GET /promotions/calendar', () => {
  it('lists, per UTC day, the promotions running that day and leaves other days out', async () => {
    const seller = await makeSeller(t);
    const today = Math.floor(t.ctx.clock.now() / DAY) * DAY;
    const deal = await promote('SANDBOX-EUR1-001', {
      seller,
      from: today + 2 * DAY + 3600_000,
      to: today + 4 * DAY,
    });
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const calendar = await sellerGet(
      t,
      seller,
      `/promotions/calendar?from=${iso(today)}&to=${iso(today + 9 * DAY)}`,
    );
    expect(calendar.status).toBe(200);
    const days = calendar.body.data.filter((d: { promotions: { promotionId: string }[] }) =>
      d.promotions.some((p) => p.promotionId === deal.id),
    );
    expect(days.map((d: { date: string }) => d.date)).toEqual([iso(today + 2 * DAY), iso(today + 3 * DAY)]);
    expect(days[0].promotions).toContainEqual(
      expect.objectContaining({ promotionId: deal.id, state: 'scheduled' }),
    );
    const other = await makeSeller(t);
    const theirs = await sellerGet(
      t,
      other,
      `/promotions/calendar?from=${iso(today)}&to=${iso(today + 9 * DAY)}`,
    );
    const ids = theirs.body.data.flatMap((d: { promotions: { promotionId: string }[] }) =>
      d.promotions.map((p) => p.promotionId),
    );
    expect(ids).not.toContain(deal.id);
  });
});
