import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call } from '../../test/route-contract.js';
import { SANDBOX_LIMITS_PER_MINUTE } from './rate-limit.js';

const t = useTestApp();
const get = (headers: Record<string, string>, path: string) =>
  call(t, { method: 'GET', url: `/api/seller/v1${path}`, headers });
const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ratelimit-remaining']);

/** To the first second of a minute: the counts below then stay in one window, unweighted. */
function startOfMinute() {
  const intoMinuteMs = t.ctx.clock.now() % 60_000;
  t.ctx.testClock!.advance((60_000 - intoMinuteMs + 1_000) / 1000);
}

describe('sandbox rate classes', () => {
  it('counts webhook management in its own class: its reads leave the general window untouched, and /usage reports them', async () => {
    const seller = await makeSeller(t);
    startOfMinute();
    const general = await get(seller.auth, '/whoami');
    const hooks = await get(seller.auth, '/webhooks');
    expect(hooks.status).toBe(200);
    const created = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/webhooks',
      headers: seller.auth,
      payload: { url: 'https://hooks.example.com/in' },
    });
    expect(created.status).toBe(201);
    const hooksAgain = await get(seller.auth, '/webhooks');
    const generalAgain = await get(seller.auth, '/whoami');
    // Two reads in the webhooks class, one in general before the last general read.
    expect(remaining(hooks)).toBe(SANDBOX_LIMITS_PER_MINUTE.read - 1);
    expect(remaining(hooksAgain)).toBe(SANDBOX_LIMITS_PER_MINUTE.read - 2);
    expect(remaining(generalAgain)).toBe(remaining(general) - 1);
    const usage = await get(seller.auth, '/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.data.at(-1).apiCalls).toMatchObject({ webhooks: 3, general: 2 });
  });

  it('debits read-cached, not read, when GET /products is answered from the page cache', async () => {
    const seller = await makeSeller(t);
    await get(seller.auth, '/products?limit=1'); // provisions the sandbox catalog
    startOfMinute();
    const built = await get(seller.auth, '/products?limit=2');
    const hit = await get(seller.auth, '/products?limit=2');
    expect(hit.raw).toBe(built.raw);
    expect(built.headers['x-ratelimit-limit']).toBe(String(SANDBOX_LIMITS_PER_MINUTE.read));
    expect(hit.headers['x-ratelimit-limit']).toBe(String(SANDBOX_LIMITS_PER_MINUTE['read-cached']));
    expect(remaining(hit)).toBe(SANDBOX_LIMITS_PER_MINUTE['read-cached'] - 1);
    // The hit did not touch the read window: the next fresh page is its second debit.
    const fresh = await get(seller.auth, '/products?limit=3');
    expect(fresh.headers['x-ratelimit-limit']).toBe(String(SANDBOX_LIMITS_PER_MINUTE.read));
    expect(remaining(fresh)).toBe(remaining(built) - 1);
    // Another seller's identical URL is no hit of this seller's page.
    const other = await makeSeller(t);
    const theirs = await get(other.auth, '/products?limit=2');
    expect(theirs.headers['x-ratelimit-limit']).toBe(String(SANDBOX_LIMITS_PER_MINUTE.read));
  });
});
