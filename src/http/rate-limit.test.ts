import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';
import { SANDBOX_LIMITS_PER_MINUTE } from './rate-limit.js';

const t = useTestApp();

async function footprintWrites(headers: Record<string, string>, count: number) {
  let last: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 0; i < count; i++) {
    last = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers,
      payload: { countries: ['DE'], currencies: ['EUR'] },
    });
  }
  return last!;
}

describe('sandbox rate limits', () => {
  it('stamps X-RateLimit-* headers on sandbox replies and counts down', async () => {
    const seller = await makeSeller(t);
    const first = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    const second = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(first.headers['x-ratelimit-limit']).toBe(String(SANDBOX_LIMITS_PER_MINUTE.read));
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(
      Number(first.headers['x-ratelimit-remaining']) - 1,
    );
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(t.ctx.clock.now() / 1000);
  });

  it('refuses the 601st write in a minute with 429 and Retry-After, without running it', async () => {
    const seller = await makeSeller(t);
    // To the first second of a minute: the 600 writes (seconds on PostgreSQL) then stay in one
    // window. Across a boundary, the previous window weighs a little less than 1 (600 x 0.9997
    // rounds down to 599) and the 601st is rightly admitted.
    const intoMinuteMs = t.ctx.clock.now() % 60_000;
    t.ctx.testClock!.advance((60_000 - intoMinuteMs + 1_000) / 1000);
    const last = await footprintWrites(seller.auth, SANDBOX_LIMITS_PER_MINUTE.write);
    expect(last.status).toBe(200);
    const countries = ['FR'];
    const refused = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: seller.auth,
      payload: { countries, currencies: ['EUR'] },
    });
    expectApiError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    const stored = await t.ctx.db
      .selectFrom('seller_footprints')
      .select('countries')
      .where('company_id', '=', seller.company.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.countries)).toEqual(['DE']);
    const read = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(read.status).toBe(200);
  });

  it('counts per company: another company is unaffected', async () => {
    const busy = await makeSeller(t);
    await footprintWrites(busy.auth, SANDBOX_LIMITS_PER_MINUTE.write + 1);
    const other = await makeSeller(t);
    const result = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: other.auth,
      payload: { countries: ['DE'], currencies: ['EUR'] },
    });
    expect(result.status).toBe(200);
  });

  it('admits writes again as the window slides', async () => {
    const seller = await makeSeller(t);
    await footprintWrites(seller.auth, SANDBOX_LIMITS_PER_MINUTE.write + 1);
    t.ctx.testClock!.advance(120);
    const later = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: seller.auth,
      payload: { countries: ['DE'], currencies: ['EUR'] },
    });
    expect(later.status).toBe(200);
  });

  it('never counts or refuses production keys', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const headers = { ...seller.auth, 'x-forwarded-for': '8.8.8.8' };
    const last = await footprintWrites(headers, SANDBOX_LIMITS_PER_MINUTE.write + 5);
    expect(last.status).toBe(200);
    expect(last.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
