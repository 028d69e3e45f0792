import { describe, expect, it } from 'vitest';
import { randomBase32 } from '../../src/lib/ids.js';
import { admin, adminHeaders } from '../admin.js';
import { makeKey } from '../factories.js';
import { useTestApp } from '../harness.js';
import { productionScenario } from '../production.js';
import { expectApiError } from '../route-contract.js';

const t = useTestApp();

async function list(url: string) {
  const response = await t.adminApp.inject({ method: 'GET', url: `/admin/v1${url}`, headers: adminHeaders });
  return { status: response.statusCode, body: response.json() };
}

describe('operator lists (/admin/v1, cursor pages, newest first)', () => {
  it('pages companies with a cursor that keeps the filters, and validates the country as a code', async () => {
    const country = 'NZ';
    const names = ['A', 'B', 'C', 'D', 'E'].map((n) => `Kiwi ${n} ${randomBase32(4)}`);
    for (const name of names) await admin(t, 'POST', '/companies', { name, country });
    const seen: string[] = [];
    let url: string | null = `/companies?country=${country}&limit=2`;
    while (url) {
      const page = await list(url.replace(/^\/admin\/v1/, ''));
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((c: { name: string }) => c.name));
      url = page.body.meta.nextUrl;
    }
    expect(seen).toEqual([...names].reverse());
    expectApiError(await list('/companies?country=Germany'), 422, 'VALIDATION_FAILED');
    expectApiError(await list('/companies?cursor=garbage'), 422, 'VALIDATION_FAILED');
  });

  it("lists a SKU's pools, a seller's allocations and its API keys (never a token)", async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    const pools = await list(`/pools?skuCode=${s.skuCode}`);
    expect(pools.body.data).toEqual([
      expect.objectContaining({ id: s.poolId, skuId: s.skuId, availableKeys: 3 }),
    ]);
    expect((await list(`/pools?skuId=${s.skuId}&environment=sandbox`)).body.data).toEqual([]);

    const allocations = await list(`/companies/${s.sellerId}/allocations?status=active`);
    expect(allocations.body.data).toEqual([
      expect.objectContaining({ id: s.allocationId, skuCode: s.skuCode, quantityLimit: 100 }),
    ]);
    expectApiError(
      await list('/companies/0190a1b2-0000-7000-8000-000000000000/allocations'),
      404,
      'NOT_FOUND',
    );

    const second = await makeKey(t, s.sellerId, { environment: 'sandbox' });
    const keys = await list(`/companies/${s.sellerId}/keys?limit=1`);
    expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([second.keyId]);
    const next = await list(`/companies/${s.sellerId}/keys?limit=1&cursor=${keys.body.meta.nextCursor}`);
    expect(next.body.data.map((k: { id: string }) => k.id)).toEqual([s.seller.keyId]);
    const raw = JSON.stringify([keys.body, next.body]);
    expect(raw).not.toContain(second.token);
    expect(raw).not.toContain(s.seller.token);
  });
});
