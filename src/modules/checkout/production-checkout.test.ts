import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import { useTestApp } from '../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../test/production.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

const order = (auth: Record<string, string>, body: unknown) =>
  call(t, {
    method: 'POST',
    url: '/api/seller/v1/orders',
    headers: auth,
    payload: body as Record<string, unknown>,
  });

describe('production checkout', () => {
  it('delivers the imported keys once each, and refuses when the pool runs dry', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    const first = await order(s.seller.auth, productionOrder(s, { quantity: 2 }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await order(s.seller.auth, productionOrder(s));
    const delivered = [...first.body.data.keys, ...second.body.data.keys].sort();
    expect(delivered).toEqual([...s.keys].sort());
    expectApiError(await order(s.seller.auth, productionOrder(s)), 409, 'NO_AVAILABLE_KEYS');
    const allocation = await t.ctx.db
      .selectFrom('allocations')
      .selectAll()
      .where('id', '=', s.allocationId)
      .executeTakeFirstOrThrow();
    expect(allocation.quantity_pulled).toBe(3);
  });

  it('requires the buyer IP, keeps only its country and peppered hash, and flags a mismatch', async () => {
    const s = await productionScenario(t, { agreement: { consumerGeoPolicy: 'flag' } });
    const body = productionOrder(s);
    const noIp = await order(s.seller.auth, {
      ...body,
      integrationOrderContext: { ...body.integrationOrderContext, consumerIp: undefined },
    });
    expectApiError(noIp, 422, 'VALIDATION_FAILED');
    expect(noIp.body.details.issues[0].field).toBe('integrationOrderContext.consumerIp');

    const german = productionOrder(s, {
      integrationOrderContext: { ...body.integrationOrderContext, consumerIp: '80.128.0.1' },
    });
    const flagged = await order(s.seller.auth, german);
    expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);
    expect(flagged.body.data.warnings).toEqual([expect.objectContaining({ code: 'COUNTRY_MISMATCH' })]);
    const [sale] = await t.ctx.db
      .selectFrom('sale_lines')
      .selectAll()
      .where('order_id', '=', flagged.body.data.orderId)
      .execute();
    expect(sale).toMatchObject({
      detected_country_code: 'DE',
      country_mismatch: 1,
      customer_region_code: 'US',
    });
    expect(sale!.consumer_ip_hash).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(JSON.parse(sale!.warnings)).toEqual(['COUNTRY_MISMATCH']);
    const rows = JSON.stringify([
      await t.ctx.db.selectFrom('orders').selectAll().execute(),
      await t.ctx.db.selectFrom('sale_lines').selectAll().execute(),
      await t.ctx.db.selectFrom('activity_entries').selectAll().execute(),
    ]);
    expect(rows).not.toContain('80.128.0.1');
  });

  it('refuses a geo mismatch when the agreement says refuse, and a paused agreement', async () => {
    const s = await productionScenario(t, { agreement: { consumerGeoPolicy: 'refuse' } });
    const body = productionOrder(s);
    const refused = await order(s.seller.auth, {
      ...body,
      integrationOrderContext: { ...body.integrationOrderContext, consumerIp: '80.128.0.1' },
    });
    expectApiError(refused, 422, 'CONSUMER_GEO_MISMATCH_POLICY_REFUSED');
    expect(refused.body.details).toEqual({ declaredCountry: 'US', detectedCountry: 'DE' });
    await admin(t, 'PATCH', `/agreements/${s.agreementId}`, { status: 'paused' });
    expectApiError(await order(s.seller.auth, productionOrder(s)), 403, 'CONTRACT_NOT_ACTIVE');
  });

  it('enforces the declared footprint and region locks in production', async () => {
    const s = await productionScenario(t, { agreement: { regionLocks: ['US'] } });
    const locked = await order(s.seller.auth, productionOrder(s));
    expectApiError(locked, 422, 'REGION_LOCKED');
    await admin(
      t,
      'PUT',
      `/companies/${s.sellerId}/footprint`,
      { countries: ['DE'], currencies: ['USD'] },
      200,
    );
    const footprint = await order(s.seller.auth, productionOrder(s));
    expectApiError(footprint, 422, 'FOOTPRINT_COUNTRY_NOT_DECLARED');
    expect(footprint.body.details).toMatchObject({
      countryCode: 'US',
      fixItUrl: '/api/seller/v1/me/footprint',
    });
  });
});
