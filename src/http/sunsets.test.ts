import { describe, expect, it } from 'vitest';
import { admin } from '../../test/admin.js';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';

const t = useTestApp();
const whoami = (headers: Record<string, string>, pin?: string) =>
  call(t, {
    method: 'GET',
    url: '/api/seller/v1/whoami',
    headers: pin ? { ...headers, 'x-service-api-version': pin } : headers,
  });

describe('sunset of a contract date', () => {
  it('is off by default; once published, replies pinned to that date carry Deprecation, Sunset and Link, others not; withdrawn, they stop', async () => {
    const seller = await makeSeller(t);
    const before = await whoami(seller.auth, '2026-04-29');
    expect(before.headers.sunset).toBeUndefined();
    expect(before.headers.deprecation).toBeUndefined();
    const sunsetAt = new Date(t.ctx.clock.now() + 90 * 86_400_000);
    sunsetAt.setUTCMilliseconds(0);
    const published = await admin(t, 'PUT', '/contract-dates/2026-04-29/sunset', {
      sunsetAt: sunsetAt.toISOString(),
    });
    expect(published).toMatchObject({ contractDate: '2026-04-29', sunsetAt: sunsetAt.toISOString() });
    const pinned = await whoami(seller.auth, '2026-04-29');
    expect(pinned.status).toBe(200);
    expect(pinned.headers.sunset).toBe(sunsetAt.toUTCString());
    expect(pinned.headers.deprecation).toBe(`@${Math.floor(Date.parse(published.deprecatedSince) / 1000)}`);
    expect(pinned.headers.link).toMatch(/^<http.*\/docs#section\/Contract-dates>; rel="sunset"/);
    // An error reply pinned to it says so too; the other date and unpinned requests do not.
    const refused = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { authorization: 'Bearer nope', 'x-service-api-version': '2026-04-29' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.sunset).toBe(sunsetAt.toUTCString());
    expect((await whoami(seller.auth, '2026-09-01')).headers.sunset).toBeUndefined();
    expect((await whoami(seller.auth)).headers.sunset).toBeUndefined();
    const listed = await admin(t, 'GET', '/contract-dates');
    expect(listed).toEqual([
      {
        contractDate: '2026-04-29',
        sunsetAt: sunsetAt.toISOString(),
        deprecatedSince: published.deprecatedSince,
      },
      { contractDate: '2026-09-01', sunsetAt: null, deprecatedSince: null },
    ]);
    await admin(t, 'DELETE', '/contract-dates/2026-04-29/sunset');
    expect((await whoami(seller.auth, '2026-04-29')).headers.sunset).toBeUndefined();
  });

  it('refuses a sunset in the past, an unknown contract date and unknown fields', async () => {
    const headers = { authorization: 'Bearer test-admin-token-0123456789abcdef' };
    const past = await call(t, {
      method: 'PUT',
      url: '/admin/v1/contract-dates/2026-04-29/sunset',
      headers,
      payload: { sunsetAt: new Date(t.ctx.clock.now() - 1000).toISOString() },
    });
    expectApiError(past, 422, 'VALIDATION_FAILED');
    const unknown = await call(t, {
      method: 'PUT',
      url: '/admin/v1/contract-dates/2025-01-01/sunset',
      headers,
      payload: { sunsetAt: new Date(t.ctx.clock.now() + 1000_000).toISOString() },
    });
    expect(unknown.status).toBe(422);
    const extra = await call(t, {
      method: 'PUT',
      url: '/admin/v1/contract-dates/2026-09-01/sunset',
      headers,
      payload: { sunsetAt: new Date(t.ctx.clock.now() + 1000_000).toISOString(), note: 'x' },
    });
    expect(extra.status).toBe(422);
    const none = await call(t, {
      method: 'DELETE',
      url: '/admin/v1/contract-dates/2026-09-01/sunset',
      headers,
    });
    expectApiError(none, 404, 'NOT_FOUND');
  });
});
