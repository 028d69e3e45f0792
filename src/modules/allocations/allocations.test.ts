import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { admin, buildCatalog, changesFor, eventsFor, sellability } from '../../../test/admin.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

describeRouteContract('GET /allocations', t, {
  method: 'GET',
  url: () => '/api/seller/v1/allocations',
  scopes: ['seller:products:read'],
  badInput: { url: '/api/seller/v1/allocations?limit=101' },
});
describeRouteContract('GET /allocations/requests', t, {
  method: 'GET',
  url: () => '/api/seller/v1/allocations/requests',
  scopes: ['seller:products:read'],
  badInput: { url: '/api/seller/v1/allocations/requests?cursor=nope' },
});
describeRouteContract('POST /allocations/requests', t, {
  method: 'POST',
  url: () => '/api/seller/v1/allocations/requests',
  body: { grantId: '0190a1b2-0000-7000-8000-000000000000', requestedQuantity: 5 },
  scopes: ['seller:keys:pull'],
  badInput: { body: { grantId: 'nope', requestedQuantity: 0 }, status: 400, code: 'BAD_REQUEST' },
});
describeRouteContract('GET /partners', t, {
  method: 'GET',
  url: () => '/api/seller/v1/partners',
  scopes: ['seller:products:read'],
});

async function productionSeller() {
  const c = await buildCatalog(t);
  const key = await makeKey(t, c.sellerId, { environment: 'production' });
  return { c, headers: { ...key.auth, 'x-forwarded-for': '8.8.8.8' } };
}

describe('GET /allocations', () => {
  it('shows every allocation field of the contract, derived from the grant and the gates', async () => {
    const { c, headers } = await productionSeller();
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 1999,
    });
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 40,
      pricePerKeyCents: 1200,
      currencyCode: 'USD',
      currencyExponent: 2,
      refundPolicy: { refundableWithinDays: 7 },
      replacementPolicy: { maxPerOrder: 2, windowDays: 10 },
    });
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/allocations', headers });
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual([
      expect.objectContaining({
        id: grant.id,
        readableId: grant.readableId,
        publisherCompanyId: c.publisherId,
        productId: c.productId,
        skuId: c.skuId,
        skuCode: c.skuCode,
        productName: 'Star Game',
        quantityLimit: 40,
        quantityPulled: 0,
        remaining: 40,
        status: 'active',
        businessModel: 'api',
        pricePerKeyCents: 1200,
        currencyCode: 'USD',
        currencyExponent: 2,
        shareActive: true,
        catalogVisible: true,
        territoryPricingSet: true,
        sellable: true,
        readinessBlockers: [],
        recommendedAction: null,
        activation: { type: 'worldwide', countries: null },
        refundPolicy: {
          refundableWithinDays: 7,
          source: 'publisher',
          requiresUnrevealedOrUnredeemed: false,
          chargebacksQuarantineKeys: true,
        },
        replacementPolicy: { maxPerOrder: 2, windowDays: 10 },
        consumerGeoAttestRequired: false,
      }),
    ]);
    expect(result.body.meta).toMatchObject({
      limit: 50,
      count: 1,
      hasMore: false,
      nextCursor: null,
      warnings: [],
    });
  });

  it('pages with opaque cursors and filters sellableOnly without short pages', async () => {
    const { c, headers } = await productionSeller();
    for (let i = 0; i < 5; i++) {
      const sku = await admin(t, 'POST', `/releases/${c.releaseId}/skus`, {
        code: `${c.skuCode}-${i}`,
        platform: 'steam',
      });
      if (i % 2 === 0)
        await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: sku.id }, 200);
      await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
        skuId: sku.id,
        quantityLimit: 10,
      });
    }
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 1999,
    });
    const seen: string[] = [];
    let url = '/api/seller/v1/allocations?limit=2';
    for (let i = 0; i < 5 && url; i++) {
      const pageResult = await call(t, { method: 'GET', url, headers });
      seen.push(...pageResult.body.data.map((a: { id: string }) => a.id));
      url = pageResult.body.meta.nextUrl;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const sellable = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations?sellableOnly=true&limit=2',
      headers,
    });
    expect(sellable.body.data).toHaveLength(2);
    expect(sellable.body.data.every((a: { sellable: boolean }) => a.sellable)).toBe(true);
    const rest = await call(t, { method: 'GET', url: sellable.body.meta.nextUrl, headers });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.meta.hasMore).toBe(false);
  });

  it('filters updatedSince and warns about the overlap', async () => {
    const { c, headers } = await productionSeller();
    await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 1,
    });
    t.ctx.testClock!.advance(10);
    const since = new Date(t.ctx.clock.now()).toISOString();
    const result = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/allocations?updatedSince=${since}`,
      headers,
    });
    expect(result.body.data).toEqual([]);
    expect(result.body.meta.warnings[0].code).toBe('UPDATED_SINCE_OVERLAP');
  });

  it('serves a row updated 2 s before updatedSince (the overlap), not one 10 s before', async () => {
    const { c, headers } = await productionSeller();
    const old = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 1,
    });
    t.ctx.testClock!.advance(8);
    const late = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 2,
    });
    t.ctx.testClock!.advance(2);
    const since = new Date(t.ctx.clock.now()).toISOString();
    const result = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/allocations?updatedSince=${since}`,
      headers,
    });
    const ids = result.body.data.map((a: { id: string }) => a.id);
    expect(ids).toEqual([late.id]);
    expect(ids).not.toContain(old.id);
    expect(result.body.meta.warnings).toEqual([
      expect.objectContaining({
        code: 'UPDATED_SINCE_OVERLAP',
        message: expect.stringContaining('5 seconds'),
      }),
    ]);
  });

  it("keeps the request's whole query in meta.nextUrl, on allocations and on requests", async () => {
    const { c, headers } = await productionSeller();
    const since = new Date(t.ctx.clock.now() - 60_000).toISOString();
    const grants = [];
    for (let i = 0; i < 3; i++) {
      const sku = await admin(t, 'POST', `/releases/${c.releaseId}/skus`, {
        code: `${c.skuCode}-${i}`,
        platform: 'steam',
      });
      grants.push(
        await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
          skuId: sku.id,
          quantityLimit: 1,
        }),
      );
    }
    const first = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/allocations?updatedSince=${encodeURIComponent(since)}&limit=2`,
      headers,
    });
    const next = new URL(first.body.meta.nextUrl, 'http://localhost');
    expect(next.pathname).toBe('/api/seller/v1/allocations');
    expect(Object.fromEntries(next.searchParams)).toEqual({
      updatedSince: since,
      limit: '2',
      cursor: first.body.meta.nextCursor,
    });
    const second = await call(t, { method: 'GET', url: first.body.meta.nextUrl, headers });
    expect(second.body.meta.warnings[0].code).toBe('UPDATED_SINCE_OVERLAP');
    const served = [...first.body.data, ...second.body.data].map((a: { id: string }) => a.id);
    expect(served.sort()).toEqual(grants.map((g) => g.id).sort());

    for (const grant of grants.slice(0, 2)) {
      await call(t, {
        method: 'POST',
        url: '/api/seller/v1/allocations/requests',
        headers,
        payload: { grantId: grant.id, requestedQuantity: 1 },
      });
    }
    const requests = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations/requests?limit=1',
      headers,
    });
    const nextRequests = new URL(requests.body.meta.nextUrl, 'http://localhost');
    expect(nextRequests.pathname).toBe('/api/seller/v1/allocations/requests');
    expect(Object.fromEntries(nextRequests.searchParams)).toEqual({
      limit: '1',
      cursor: requests.body.meta.nextCursor,
    });
    const rest = await call(t, { method: 'GET', url: requests.body.meta.nextUrl, headers });
    const asked = [...requests.body.data, ...rest.body.data].map((r: { grantId: string }) => r.grantId);
    expect(asked.sort()).toEqual(
      grants
        .slice(0, 2)
        .map((g) => g.id)
        .sort(),
    );
  });

  it("never shows another company's allocations", async () => {
    const { c } = await productionSeller();
    await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 1,
    });
    const other = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations',
      headers: { ...other.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    expect(result.body.data).toEqual([]);
  });
});

describe('allocation increase requests', () => {
  it('auto-approves within the publisher ceiling and grows the grant with its event', async () => {
    const { c, headers } = await productionSeller();
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
      requestPolicy: 'auto',
      autoApproveMax: 50,
    });
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/allocations/requests',
      headers,
      payload: { grantId: grant.id, requestedQuantity: 20, declaredForecast: 100 },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      grantId: grant.id,
      status: 'approved',
      requestedQuantity: 20,
      resolution: { approvedQuantity: 20, reason: 'auto_approved' },
    });
    const stored = await t.ctx.db
      .selectFrom('allocations')
      .select('quantity_limit')
      .where('id', '=', grant.id)
      .executeTakeFirstOrThrow();
    expect(stored.quantity_limit).toBe(30);
    expect((await eventsFor(t, c.sellerId, 'allocation.updated')).at(-1)?.data).toMatchObject({
      allocationId: grant.id,
      remaining: 30,
    });
    const list = await call(t, { method: 'GET', url: '/api/seller/v1/allocations/requests', headers });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([result.body.data.id]);
  });

  it('leaves a request over the ceiling, or under a manual policy, pending; none rejects', async () => {
    const { c, headers } = await productionSeller();
    const auto = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
      requestPolicy: 'auto',
      autoApproveMax: 5,
    });
    const over = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/allocations/requests',
      headers,
      payload: { grantId: auto.id, requestedQuantity: 6 },
    });
    expect(over.body.data.status).toBe('pending');
    await admin(t, 'PATCH', `/allocations/${auto.id}`, { requestPolicy: 'none' });
    const refused = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/allocations/requests',
      headers,
      payload: { grantId: auto.id, requestedQuantity: 1 },
    });
    expect(refused.body.data).toMatchObject({
      status: 'rejected',
      resolution: { reason: 'publisher_policy_disallows_requests' },
    });
  });

  it('loses no increase when many requests are approved at once', async () => {
    const { c, headers } = await productionSeller();
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
      requestPolicy: 'auto',
      autoApproveMax: 100,
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(t, {
          method: 'POST',
          url: '/api/seller/v1/allocations/requests',
          headers,
          payload: { grantId: grant.id, requestedQuantity: 5 },
        }),
      ),
    );
    expect(results.every((r) => r.status === 200 && r.body.data.status === 'approved')).toBe(true);
    const stored = await t.ctx.db
      .selectFrom('allocations')
      .select('quantity_limit')
      .where('id', '=', grant.id)
      .executeTakeFirstOrThrow();
    expect(stored.quantity_limit).toBe(70);
  });

  it("answers 400 BAD_REQUEST for another company's grant and stores nothing", async () => {
    const { c } = await productionSeller();
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
    });
    const other = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/allocations/requests',
      headers: { ...other.auth, 'x-forwarded-for': '8.8.8.8' },
      payload: { grantId: grant.id, requestedQuantity: 1 },
    });
    expectApiError(result, 400, 'BAD_REQUEST');
    expect(
      await t.ctx.db
        .selectFrom('allocation_requests')
        .select('id')
        .where('allocation_id', '=', grant.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('allocation increase requests: refusals', () => {
  const post = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    call(t, { method: 'POST', url: '/api/seller/v1/allocations/requests', headers, payload });
  const storedRequests = async (grantId: string) =>
    t.ctx.db.selectFrom('allocation_requests').select('id').where('allocation_id', '=', grantId).execute();

  it('answers 422 VALIDATION_FAILED naming an invalid declaredForecast or publisherAvailableKeys', async () => {
    const { c, headers } = await productionSeller();
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
    });
    for (const field of ['declaredForecast', 'publisherAvailableKeys']) {
      const result = await post(headers, { grantId: grant.id, requestedQuantity: 1, [field]: -1 });
      expectApiError(result, 422, 'VALIDATION_FAILED');
      expect(result.body.details.issues).toEqual([
        {
          field,
          in: 'body',
          message: expect.any(String),
          keyword: 'minimum',
          params: { comparison: '>=', limit: 0 },
        },
      ]);
    }
    expect(await storedRequests(grant.id)).toEqual([]);
  });

  it('keeps 400 BAD_REQUEST for grantId and requestedQuantity, the 10,000,000 cap included', async () => {
    const { c, headers } = await productionSeller();
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
    });
    const over = await post(headers, { grantId: grant.id, requestedQuantity: 10_000_001 });
    expectApiError(over, 400, 'BAD_REQUEST');
    expect(over.body.details.issues.map((i: { field: string }) => i.field)).toEqual(['requestedQuantity']);
    const mixed = await post(headers, { grantId: 'nope', requestedQuantity: 1, declaredForecast: -1 });
    expectApiError(mixed, 400, 'BAD_REQUEST');
    expect(mixed.body.details.issues.map((i: { field: string }) => i.field).sort()).toEqual([
      'declaredForecast',
      'grantId',
    ]);
    const unknown = await post(headers, {
      grantId: '0190a1b2-0000-7000-8000-000000000000',
      requestedQuantity: 1,
    });
    expectApiError(unknown, 400, 'BAD_REQUEST');
    expect(unknown.body.details).toMatchObject({ field: 'grantId', reason: 'unknown_grant' });
    expect(await storedRequests(grant.id)).toEqual([]);
  });

  it('answers 500 INTERNAL_ERROR, not 400, when the database fails reading the grant', async () => {
    const { c, headers } = await productionSeller();
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
    });
    await sql`alter table allocations rename to allocations_away`.execute(t.ctx.db);
    let result: Awaited<ReturnType<typeof post>>;
    try {
      result = await post(headers, { grantId: grant.id, requestedQuantity: 1 });
    } finally {
      await sql`alter table allocations_away rename to allocations`.execute(t.ctx.db);
    }
    expectApiError(result, 500, 'INTERNAL_ERROR');
    expect(result.raw).not.toContain('allocations');
    expect(await storedRequests(grant.id)).toEqual([]);
  });
});

describe('connection share suspension', () => {
  it('whole-catalog sharing: suspending and resuming shares records updated (availability) for shared products only', async () => {
    const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    const unshared = await admin(t, 'POST', '/products', {
      publisherCompanyId: c.publisherId,
      name: 'Other Game',
      slug: `other-${c.skuCode.toLowerCase()}`,
      status: 'active',
    });
    const before = (await changesFor(t, c.sellerId)).length;
    await admin(t, 'PATCH', `/connections/${c.connectionId}`, { sharesSuspended: true });
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).toContain('NO_SKU_SHARE');
    await admin(t, 'PATCH', `/connections/${c.connectionId}`, { sharesSuspended: true });
    await admin(t, 'PATCH', `/connections/${c.connectionId}`, { sharesSuspended: false });
    const changes = (await changesFor(t, c.sellerId)).slice(before);
    const updated = { productId: c.productId, type: 'updated', changedFields: ['availability'] };
    expect(changes).toEqual([updated, updated]);
    expect(changes.some((ch) => ch.productId === unshared.id)).toBe(false);
  });
});

describe('GET /partners', () => {
  it('lists connections with the publisher profile and the contracts summary', async () => {
    const { c, headers } = await productionSeller();
    await admin(t, 'PATCH', `/companies/${c.publisherId}`, {
      website: 'https://publisher.example',
      description: 'Games',
      logoUrl: 'https://publisher.example/logo.png',
    });
    await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, { kind: 'bma', bmaType: 'api' });
    const paused = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
      kind: 'bma',
      bmaType: 'wholesale',
    });
    await admin(t, 'PATCH', `/agreements/${paused.id}`, { status: 'paused' });
    const mca = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, { kind: 'mca' });
    await admin(t, 'PATCH', `/agreements/${mca.id}`, { status: 'paused' });
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/partners', headers });
    expect(result.body.data).toEqual([
      expect.objectContaining({
        id: c.connectionId,
        publisherCompanyId: c.publisherId,
        website: 'https://publisher.example',
        country: 'US',
        description: 'Games',
        logo: { url: 'https://publisher.example/logo.png' },
        contracts: {
          activeBmaTypes: ['api'],
          pausedBmaTypes: ['wholesale'],
          pendingBmaTypes: [],
          mcaStatus: 'paused',
          catalogShareMode: 'per_sku',
          sharesSuspended: false,
        },
      }),
    ]);
  });

  it('shows a sandbox key the sandbox publisher, provisioned on first use', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/partners', headers: seller.auth });
    expect(result.body.data).toHaveLength(1);
    expect(result.body.data[0]).toMatchObject({
      publisherCompanyName: 'Sandbox Publisher',
      contracts: { activeBmaTypes: ['api'] },
    });
  });
});
