import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

describeRouteContract('GET /whoami', t, { method: 'GET', url: () => '/api/seller/v1/whoami' });
describeRouteContract('GET /me/footprint', t, {
  method: 'GET',
  url: () => '/api/seller/v1/me/footprint',
  scopes: ['seller:account:manage'],
});
describeRouteContract('PUT /me/footprint', t, {
  method: 'PUT',
  url: () => '/api/seller/v1/me/footprint',
  body: { countries: ['DE'], currencies: ['EUR'] },
  scopes: ['seller:account:manage'],
  badInput: { body: { countries: [], currencies: ['EUR'] } },
});

describe('GET /whoami', () => {
  it('returns the whole identity of a sandbox key, derived from stored data', async () => {
    const seller = await makeSeller(t, { scopes: ['seller:products:read', 'seller:keys:pull'] });
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      companyId: seller.company.id,
      companyName: seller.company.name,
      environment: 'sandbox',
      scopes: ['seller:products:read', 'seller:keys:pull'],
      hasActiveBma: false,
      capabilities: {
        checkoutHoldEnabled: true,
        keylessEnabled: false,
        capabilityDetails: { preorder: { verifiedAt: null } },
      },
      key: { id: seller.keyId, rateLimited: true, expiresAt: null },
      footprint: { countries: [], currencies: [], countriesWithoutReferenceRate: [] },
      permittedCurrenciesByPublisher: [],
      geoPolicyByPublisher: [],
      integrationReadiness: { blockers: [] },
      settlement: { invoiceWithinDays: null },
      refundPolicy: { source: 'platform' },
    });
    expect(result.body.data.requiredDeclarations).not.toContain('integrationOrderContext.consumerIp');
  });

  it('reports production keys as not rate limited and requires consumerIp', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { ...seller.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    expect(result.body.data.key.rateLimited).toBe(false);
    expect(result.body.data.environment).toBe('production');
    expect(result.body.data.requiredDeclarations).toContain('integrationOrderContext.consumerIp');
  });

  it('names STORE_COUNTRY_MISSING when the company has no country', async () => {
    const seller = await makeSeller(t, { country: null });
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(result.body.data.integrationReadiness.blockers).toEqual([
      { code: 'STORE_COUNTRY_MISSING', action: 'register_company_country' },
    ]);
  });
});

describe('footprint', () => {
  it('writes countries and currencies together and shows them in whoami', async () => {
    const seller = await makeSeller(t);
    const put = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: seller.auth,
      payload: { countries: ['FR', 'DE', 'DE'], currencies: ['EUR'] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ countries: ['DE', 'FR'], currencies: ['EUR'] });
    const stored = await t.ctx.db
      .selectFrom('seller_footprints')
      .selectAll()
      .where('company_id', '=', seller.company.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.countries)).toEqual(['DE', 'FR']);
    const whoami = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(whoami.body.data.footprint).toMatchObject({ countries: ['DE', 'FR'], currencies: ['EUR'] });
  });

  it('refuses a footprint without a currency and keeps the old one', async () => {
    const seller = await makeSeller(t);
    await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: seller.auth,
      payload: { countries: ['DE'], currencies: ['EUR'] },
    });
    const refused = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: seller.auth,
      payload: { countries: ['US'], currencies: [] },
    });
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.details.issues[0].field).toBe('currencies');
    const get = await call(t, { method: 'GET', url: '/api/seller/v1/me/footprint', headers: seller.auth });
    expect(get.body.data).toMatchObject({ countries: ['DE'], currencies: ['EUR'] });
  });
});
