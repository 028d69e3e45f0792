import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { seedSandboxCatalog } from './sandbox.service.js';

const t = useTestApp();

describe('browsing the sandbox catalog', () => {
  it('shows SANDBOX-ALWAYS-PS5-001 as a PS5 product: its product lists ps5 among its platforms, its SKU is ps5', async () => {
    await seedSandboxCatalog(t.ctx);
    const seller = await makeSeller(t);
    const list = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/products?limit=100',
      headers: seller.auth,
    });
    expect(list.status).toBe(200);
    const always = list.body.data.find((p: { name: string }) => p.name === 'Sandbox Always');
    expect(always.platforms).toEqual([{ code: 'steam' }, { code: 'ps5' }]);
    const detail = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/products/${always.id}`,
      headers: seller.auth,
    });
    const skus = detail.body.data.releases.flatMap((r: { skus: { code: string }[] }) => r.skus);
    expect(skus.find((s: { code: string }) => s.code === 'SANDBOX-ALWAYS-PS5-001')).toMatchObject({
      platform: 'ps5',
    });
  });

  it('adds the ps5 platform to an installation seeded before, once', async () => {
    await seedSandboxCatalog(t.ctx);
    await t.ctx.db
      .updateTable('products')
      .set({ platforms: JSON.stringify([{ code: 'steam' }]) })
      .where('slug', '=', 'sandbox-always')
      .where('environment', '=', 'sandbox')
      .execute();
    await seedSandboxCatalog(t.ctx);
    await seedSandboxCatalog(t.ctx);
    const row = await t.ctx.db
      .selectFrom('products')
      .select('platforms')
      .where('slug', '=', 'sandbox-always')
      .where('environment', '=', 'sandbox')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.platforms)).toEqual([{ code: 'steam' }, { code: 'ps5' }]);
  });
});
