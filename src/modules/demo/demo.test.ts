import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { DEMO_SELLER_ID, seedDemo } from './demo.service.js';

const t = useTestApp();

describe('sdapi seed demo', () => {
  it('builds a production world once and mints a working production key on every run', async () => {
    const first = await seedDemo(t.ctx, '8.8.8.8');
    const second = await seedDemo(t.ctx, '8.8.8.8');
    expect(first).toMatchObject({
      sellerCompanyId: DEMO_SELLER_ID,
      alreadySeeded: false,
      allowedIps: ['8.8.8.8'],
    });
    expect(second.alreadySeeded).toBe(true);
    expect(second.productionKey).not.toBe(first.productionKey);
    const headers = { authorization: `Bearer ${second.productionKey}`, 'x-forwarded-for': '8.8.8.8' };
    const partners = await call(t, { method: 'GET', url: '/api/seller/v1/partners', headers });
    expect(partners.body.data).toHaveLength(2);
    const allocations = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations?sellableOnly=true&limit=100',
      headers,
    });
    expect(allocations.body.data.length).toBeGreaterThanOrEqual(4);
    const availability = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/availability?skuCode=${allocations.body.data[0].skuCode}&country=DE`,
      headers,
    });
    expect(availability.body.data).toMatchObject({ available: 200, sellableInCountry: true });
  });
});
