import { describe, expect, it } from 'vitest';
import { admin, buildCatalog } from '../../../test/admin.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const url = (query: string) => `/api/seller/v1/availability?${query}`;

describeRouteContract('GET /availability', t, {
  method: 'GET',
  url: () => url('skuCode=SANDBOX-ALWAYS-001'),
  scopes: ['seller:products:read'],
  badInput: { url: url('skuCode=SANDBOX-ALWAYS-001&quantity=1001') },
});

describe('GET /availability on the sandbox catalog', () => {
  it('shows SANDBOX-LOWSTOCK-001 with 3 available; quantity 4 cannot be fulfilled', async () => {
    const seller = await makeSeller(t);
    const three = await call(t, {
      method: 'GET',
      url: url('skuCode=SANDBOX-LOWSTOCK-001&quantity=3'),
      headers: seller.auth,
    });
    expect(three.status).toBe(200);
    expect(three.body.data).toMatchObject({
      available: 3,
      maxFulfillableQuantity: 3,
      canFulfill: true,
      cannotFullyFulfill: false,
      inventoryAvailable: 3,
    });
    const four = await call(t, {
      method: 'GET',
      url: url('skuCode=SANDBOX-LOWSTOCK-001&quantity=4'),
      headers: seller.auth,
    });
    expect(four.body.data).toMatchObject({
      canFulfill: false,
      cannotFullyFulfill: true,
      allOrNothingWillFail: true,
      partialFulfillmentExpected: true,
    });
  });

  it('blocks SANDBOX-TERR-BLOCK-001 for US with its reason, not for DE', async () => {
    const seller = await makeSeller(t);
    const us = await call(t, {
      method: 'GET',
      url: url('skuCode=SANDBOX-TERR-BLOCK-001&countryCode=us'),
      headers: seller.auth,
    });
    expect(us.body.data).toMatchObject({
      country: 'US',
      sellableInCountry: false,
      blockedReason: 'TERRITORY_EXCLUDED_FOR_RELEASE',
    });
    const de = await call(t, {
      method: 'GET',
      url: url('skuCode=SANDBOX-TERR-BLOCK-001&country=DE'),
      headers: seller.auth,
    });
    expect(de.body.data).toMatchObject({ country: 'DE', sellableInCountry: true, blockedReason: null });
  });

  it('answers the finite, empty and unallocated fixtures truthfully', async () => {
    const seller = await makeSeller(t);
    const bulk = await call(t, {
      method: 'GET',
      url: url(
        'skuCodes=SANDBOX-STD-001,SANDBOX-NOKEYS-001,SANDBOX-NOALLOC-001,SANDBOX-NOSHARE-001,NOT-A-SKU',
      ),
      headers: seller.auth,
    });
    expect(bulk.status).toBe(200);
    const byCode = Object.fromEntries(bulk.body.data.map((i: { skuCode: string }) => [i.skuCode, i]));
    expect(byCode['SANDBOX-STD-001']).toMatchObject({
      available: 25,
      dedicatedAvailable: 25,
      sharedPoolAvailable: 0,
    });
    expect(byCode['SANDBOX-NOKEYS-001']).toMatchObject({
      available: 0,
      cannotFullyFulfill: true,
      inventoryAvailable: 0,
    });
    expect(byCode['SANDBOX-NOALLOC-001']).toMatchObject({
      available: 0,
      allocationId: null,
      readinessBlockers: ['NO_ALLOCATION'],
    });
    expect(bulk.body.meta.notFound).toEqual(['SANDBOX-NOSHARE-001', 'NOT-A-SKU']);
    expect(byCode['SANDBOX-STD-001']).not.toHaveProperty('canFulfill');
  });

  it('trims a single skuCode as bulk does, and finds a SKU by its upper-case skuId', async () => {
    const seller = await makeSeller(t);
    const padded = await call(t, {
      method: 'GET',
      url: url('skuCode=%20SANDBOX-STD-001%20'),
      headers: seller.auth,
    });
    expect(padded.status, JSON.stringify(padded.body)).toBe(200);
    expect(padded.body.data).toMatchObject({ skuCode: 'SANDBOX-STD-001', available: 25 });
    const { skuId } = padded.body.data;
    const byId = await call(t, {
      method: 'GET',
      url: url(`skuId=${skuId.toUpperCase()}`),
      headers: seller.auth,
    });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(byId.body.data).toMatchObject({ skuId, skuCode: 'SANDBOX-STD-001' });
  });

  it('answers each distinct bulk code once, in first-seen order, counting distinct codes to 50', async () => {
    const seller = await makeSeller(t);
    const bulk = await call(t, {
      method: 'GET',
      url: url(
        'skuCodes=SANDBOX-NOKEYS-001,NOT-A-SKU,SANDBOX-STD-001,%20SANDBOX-NOKEYS-001,NOT-A-SKU,SANDBOX-STD-001',
      ),
      headers: seller.auth,
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.map((i: { skuCode: string }) => i.skuCode)).toEqual([
      'SANDBOX-NOKEYS-001',
      'SANDBOX-STD-001',
    ]);
    expect(bulk.body.meta.notFound).toEqual(['NOT-A-SKU']);
    const fifty = Array.from({ length: 50 }, (_, i) => `X-${i}`);
    const repeated = await call(t, {
      method: 'GET',
      url: url(`skuCodes=${[...fifty, ...fifty.slice(0, 10)].join(',')}`),
      headers: seller.auth,
    });
    expect(repeated.status, JSON.stringify(repeated.body)).toBe(200);
    expect(repeated.body.meta.notFound).toEqual(fifty);
  });

  it('answers 404 for a SKU outside the catalog', async () => {
    const seller = await makeSeller(t);
    expectApiError(
      await call(t, { method: 'GET', url: url('skuCode=SANDBOX-NOSHARE-001'), headers: seller.auth }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses conflicting country aliases, mixed modes, a blank code, and over 50 codes', async () => {
    const seller = await makeSeller(t);
    for (const query of [
      'skuCode=SANDBOX-STD-001&countryCode=DE&country=FR',
      'skuCode=SANDBOX-STD-001&skuCodes=SANDBOX-STD-001',
      'skuCode=%20%20',
      'skuCodes=SANDBOX-STD-001&quantity=2',
      `skuCodes=${Array.from({ length: 51 }, (_, i) => `X-${i}`).join(',')}`,
      'quantity=1',
    ]) {
      expectApiError(
        await call(t, { method: 'GET', url: url(query), headers: seller.auth }),
        422,
        'VALIDATION_FAILED',
      );
    }
  });

  it('refuses magic SKUs to production keys', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'GET',
      url: url('skuCode=SANDBOX-ALWAYS-001'),
      headers: { ...seller.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    expectApiError(result, 422, 'SANDBOX_MAGIC_VALUE_REJECTED');
  });
});

describe('GET /availability in production', () => {
  it('caps the allocation by the keys in its pools and names each territory block', async () => {
    const c = await buildCatalog(t);
    const key = await makeKey(t, c.sellerId, { environment: 'production' });
    const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'DE',
      currencyCode: 'EUR',
      listPriceCents: 1999,
    });
    await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
      kind: 'bma',
      bmaType: 'api',
      regionLocks: ['FR'],
    });
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
    });
    const shared = await admin(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId });
    const dedicated = await admin(t, 'POST', '/pools', { kind: 'dedicated', allocationId: grant.id });
    const adminHeaders = {
      authorization: 'Bearer test-admin-token-0123456789abcdef',
      'content-type': 'text/plain',
    };
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/pools/${shared.id}/keys`,
      headers: adminHeaders,
      payload: 'S-1\nS-2\nS-3\n',
    });
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/pools/${dedicated.id}/keys`,
      headers: adminHeaders,
      payload: 'D-1\nD-2\n',
    });

    const result = await call(t, {
      method: 'GET',
      url: url(`skuId=${c.skuId}&quantity=5&country=DE`),
      headers,
    });
    expect(result.body.data).toMatchObject({
      available: 5,
      allocationRemaining: 10,
      inventoryAvailable: 5,
      dedicatedAvailable: 2,
      sharedPoolAvailable: 3,
      allocationId: grant.id,
      allocationReadableId: grant.readableId,
      canFulfill: true,
      sellableInCountry: true,
      blockedReason: null,
    });
    const blocked = async (country: string) =>
      (await call(t, { method: 'GET', url: url(`skuId=${c.skuId}&country=${country}`), headers })).body.data
        .blockedReason;
    expect(await blocked('FR')).toBe('REGION_LOCKED_FOR_CONTRACT');
    expect(await blocked('US')).toBe('CATALOG_PRICE_NOT_SET');
    expect(await blocked('IR')).toBe('COUNTRY_RESTRICTED');
  });

  it('is requestable only for an active, used-up grant whose policy takes requests', async () => {
    const c = await buildCatalog(t);
    const key = await makeKey(t, c.sellerId, { environment: 'production' });
    const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 0,
      requestPolicy: 'manual',
    });
    const availability = async () =>
      (await call(t, { method: 'GET', url: url(`skuId=${c.skuId}`), headers })).body.data;
    expect(await availability()).toMatchObject({ allocationRemaining: 0, requestable: true });
    for (const status of ['paused', 'revoked']) {
      await admin(t, 'PATCH', `/allocations/${grant.id}`, { status });
      expect(await availability()).toMatchObject({
        allocationId: grant.id,
        allocationRemaining: 0,
        requestable: false,
      });
    }
    const refusing = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 0,
      requestPolicy: 'none',
    });
    expect(await availability()).toMatchObject({ allocationId: refusing.id, requestable: false });
    await admin(t, 'PATCH', `/allocations/${refusing.id}`, { requestPolicy: 'auto', autoApproveMax: 5 });
    expect(await availability()).toMatchObject({ allocationId: refusing.id, requestable: true });
    await admin(t, 'PATCH', `/allocations/${refusing.id}`, { quantityLimit: 3 });
    expect(await availability()).toMatchObject({ allocationRemaining: 3, requestable: false });
  });

  it('names SKU activation, SKU region locks and unresolved regions', async () => {
    const c = await buildCatalog(t);
    const key = await makeKey(t, c.sellerId, { environment: 'production' });
    const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
    const limited = await admin(t, 'POST', `/releases/${c.releaseId}/skus`, {
      code: `${c.skuCode}-EU`,
      platform: 'steam',
      activationCountries: ['DE', 'AT'],
      regionLocks: ['AT'],
    });
    const unknown = await admin(t, 'POST', `/releases/${c.releaseId}/skus`, {
      code: `${c.skuCode}-UNK`,
      platform: 'steam',
      activationType: 'unknown',
    });
    for (const sku of [limited, unknown])
      await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: sku.id }, 200);
    const reason = async (skuId: string, country: string) =>
      (await call(t, { method: 'GET', url: url(`skuId=${skuId}&country=${country}`), headers })).body.data
        .blockedReason;
    expect(await reason(limited.id, 'US')).toBe('TERRITORY_NOT_ALLOWED_FOR_SKU');
    expect(await reason(limited.id, 'AT')).toBe('REGION_LOCKED_FOR_SKU');
    expect(await reason(unknown.id, 'DE')).toBe('SKU_REGION_UNRESOLVED');
  });
});
