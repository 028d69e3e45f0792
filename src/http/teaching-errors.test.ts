import { describe, expect, it } from 'vitest';
import { alwaysOrder, post, US_SALE } from '../../test/checkout.js';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';

const t = useTestApp();

describe('errors that teach', () => {
  it('names every missing declaration of an order in one answer, under the first code', async () => {
    const seller = await makeSeller(t);
    const { expectedUnitPriceCents: _bound, ...unbound } = alwaysOrder({
      integrationOrderContext: { currencyCode: 'USD' },
    });
    const result = await post(t, seller, '/orders', unbound);
    expectApiError(result, 422, 'TAX_DECLARATION_REQUIRED');
    expect(result.body.details.issues).toEqual([
      expect.objectContaining({
        field: 'integrationOrderContext.salesTaxRatePercent',
        code: 'TAX_DECLARATION_REQUIRED',
      }),
      expect.objectContaining({
        field: 'integrationOrderContext.salesPriceGrossMinor',
        code: 'TAX_DECLARATION_REQUIRED',
      }),
      expect.objectContaining({
        field: 'integrationOrderContext.salesCountryCode',
        code: 'SALES_COUNTRY_REQUIRED',
      }),
      expect.objectContaining({
        field: 'integrationOrderContext.salesChannel',
        code: 'SALES_CHANNEL_REQUIRED',
      }),
      expect.objectContaining({ field: 'expectedUnitPriceCents', code: 'EXPECTED_UNIT_PRICE_REQUIRED' }),
    ]);
    expect(result.body.message).toContain('integrationOrderContext.salesChannel');
  });

  it('keeps the code of the first missing declaration when it is the only one', async () => {
    const seller = await makeSeller(t);
    const { salesChannel: _channel, ...context } = US_SALE;
    const result = await post(t, seller, '/orders', alwaysOrder({ integrationOrderContext: context }));
    expectApiError(result, 422, 'SALES_CHANNEL_REQUIRED');
    expect(result.body.details.issues).toEqual([
      expect.objectContaining({
        field: 'integrationOrderContext.salesChannel',
        code: 'SALES_CHANNEL_REQUIRED',
      }),
    ]);
  });

  it('names an unknown body field', async () => {
    const seller = await makeSeller(t);
    const result = await post(t, seller, '/orders', alwaysOrder({ sku: 'SANDBOX-ALWAYS-001' }));
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues).toContainEqual(
      expect.objectContaining({ field: 'sku', in: 'body', keyword: 'additionalProperties' }),
    );
    expect(result.body.message).toContain('body sku: is not a field of this request');
  });

  it('calls a well-formed key that does not exist unknown, not malformed', async () => {
    for (const token of ['service_sk_sbx_tooshort', 'service_sk_live_has-a-dash-0000000000000000']) {
      const result = await call(t, {
        method: 'GET',
        url: '/api/seller/v1/whoami',
        headers: { authorization: `Bearer ${token}` },
      });
      expectApiError(result, 401, 'UNAUTHORIZED');
      expect(result.body.details.reason).toBe('key_not_live');
      expect(result.body.message).toContain('unknown');
    }
  });

  it('tells a request for a missing route about the reference, not about other companies', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/no-such-thing' });
    expectApiError(result, 404, 'NOT_FOUND');
    expect(result.body.hint).toContain('/docs');
    expect(result.body.hint).not.toContain('compan');
    expect(result.body.details.reason).toBe('no_route');
  });

  it('gives the operator token its own hint', async () => {
    const result = await call(t, {
      method: 'GET',
      url: '/admin/v1/companies',
      headers: { authorization: 'Bearer wrong' },
    });
    expectApiError(result, 401, 'UNAUTHORIZED');
    expect(result.body.hint).toContain('SDAPI_ADMIN_TOKEN');
    expect(result.body.hint).not.toContain('whoami');
  });
});
