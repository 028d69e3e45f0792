import { describe, expect, it } from 'vitest';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { SCOPES } from '../../http/auth/scopes.js';

const t = useTestApp();
const keysUrl = '/api/seller/v1/keys';

describeRouteContract('GET /keys', t, { method: 'GET', url: () => keysUrl, scopes: ['seller:keys:write'] });
describeRouteContract('POST /keys', t, {
  method: 'POST',
  url: () => keysUrl,
  body: { name: 'child' },
  scopes: ['seller:keys:write'],
  badInput: { body: { name: 42 } },
});
describeRouteContract('PATCH /keys/{id}/allowed-ips', t, {
  method: 'PATCH',
  url: (_t, seller) => `${keysUrl}/${seller.keyId}/allowed-ips`,
  body: { allowed_ips: ['8.8.8.8'] },
  scopes: ['seller:keys:write'],
  otherCompanyUrl: (_t, owner) => `${keysUrl}/${owner.keyId}/allowed-ips`,
  badInput: { body: { allowed_ips: ['10.0.0.0/8'] } },
});
describeRouteContract('POST /keys/{id}/rotate', t, {
  method: 'POST',
  url: (_t, seller) => `${keysUrl}/${seller.keyId}/rotate`,
  scopes: ['seller:keys:write'],
  otherCompanyUrl: (_t, owner) => `${keysUrl}/${owner.keyId}/rotate`,
  badInput: { url: `${keysUrl}/not-a-uuid/rotate` },
});
describeRouteContract('DELETE /keys/{id}', t, {
  method: 'DELETE',
  url: (_t, seller) => `${keysUrl}/${seller.keyId}`,
  scopes: ['seller:keys:write'],
  otherCompanyUrl: (_t, owner) => `${keysUrl}/${owner.keyId}`,
  badInput: { url: `${keysUrl}/not-a-uuid` },
});

const storedKey = (id: string) =>
  t.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /keys', () => {
  it('creates a child key shown once, usable at once, stored only as a hash', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: seller.auth,
      payload: { name: 'storefront' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toEqual({
      id: expect.any(String),
      name: 'storefront',
      key: expect.stringMatching(/^service_sk_sbx_/),
      livemode: false,
    });
    const row = await storedKey(result.body.data.id);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(result.body.data.key);
    expect(row.parent_key_id).toBe(seller.keyId);
    const whoami = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { authorization: `Bearer ${result.body.data.key}` },
    });
    expect(whoami.body.data.companyId).toBe(seller.company.id);
  });

  it('never exceeds its creator: scopes intersected, opt-in scopes withheld, expiry inherited', async () => {
    const expiresAt = t.ctx.clock.now() + 86_400_000;
    const seller = await makeSeller(t, {
      scopes: ['seller:keys:write', 'seller:products:read', 'seller:account:manage'],
      expiresAt,
    });
    const result = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: seller.auth,
      payload: { name: 'narrow' },
    });
    const row = await storedKey(result.body.data.id);
    expect(JSON.parse(row.scopes).sort()).toEqual(['seller:keys:write', 'seller:products:read']);
    expect(row.expires_at).toBe(expiresAt);
  });

  it('adds the finance scope only when asked and held', async () => {
    const holder = await makeSeller(t);
    const granted = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: holder.auth,
      payload: { name: 'f', includeFinanceScope: true },
    });
    expect(JSON.parse((await storedKey(granted.body.data.id)).scopes)).toContain('seller:finance:read');
    const plain = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: holder.auth,
      payload: { name: 'p' },
    });
    expect(JSON.parse((await storedKey(plain.body.data.id)).scopes)).not.toContain('seller:finance:read');

    const lacking = await makeSeller(t, { scopes: SCOPES.filter((s) => s !== 'seller:finance:read') });
    const refused = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: lacking.auth,
      payload: { name: 'f', includeFinanceScope: true },
    });
    expectApiError(refused, 403, 'INSUFFICIENT_SCOPE');
    expect(refused.body.message).toContain('seller:finance:read');
  });

  it("bounds the child's allowlist by a restricted creator's list and inherits it when omitted", async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24'] });
    const headers = { ...seller.auth, 'x-forwarded-for': '8.8.8.8' };
    const inherited = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'i' } });
    expect(JSON.parse((await storedKey(inherited.body.data.id)).allowed_ips!)).toEqual(['8.8.8.0/24']);
    const narrower = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers,
      payload: { name: 'n', allowed_ips: ['8.8.8.8'] },
    });
    expect(narrower.status).toBe(201);
    const wider = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers,
      payload: { name: 'w', allowed_ips: ['8.8.0.0/16'] },
    });
    expectApiError(wider, 422, 'VALIDATION_FAILED');
  });

  it('refuses reserved ranges and /0 in allowed_ips, naming the entry', async () => {
    const seller = await makeSeller(t);
    for (const entry of ['192.168.1.1', '100.64.0.1', 'fd00::1', '0.0.0.0/0', '127.0.0.1', '203.0.113.5']) {
      const result = await call(t, {
        method: 'POST',
        url: keysUrl,
        headers: seller.auth,
        payload: { name: 'x', allowed_ips: ['8.8.8.8', entry] },
      });
      expectApiError(result, 422, 'VALIDATION_FAILED');
      expect(result.body.details.issues[0].field).toBe('allowed_ips[1]');
    }
  });

  it('makes production children under the production gates', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: { ...seller.auth, 'x-forwarded-for': '8.8.8.9' },
      payload: { name: 'live child' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data.livemode).toBe(true);
    expect(result.body.data.key).toMatch(/^service_sk_live_/);
  });
});

describe('GET /keys', () => {
  it('lists live keys of this company and environment with expiry and allowlist, never a secret', async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24'] });
    const second = await makeKey(t, seller.company.id, { allowedIps: ['1.1.1.1'] });
    await makeKey(t, seller.company.id, { environment: 'production' }).catch(() => undefined);
    await call(t, {
      method: 'DELETE',
      url: `${keysUrl}/${second.keyId}`,
      headers: { ...seller.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    const third = await makeKey(t, seller.company.id);
    const result = await call(t, {
      method: 'GET',
      url: keysUrl,
      headers: { ...seller.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    expect(result.status).toBe(200);
    expect(result.body.data.map((k: { id: string }) => k.id).sort()).toEqual(
      [seller.keyId, third.keyId].sort(),
    );
    const own = result.body.data.find((k: { id: string }) => k.id === seller.keyId);
    expect(own).toMatchObject({ expiresAt: null, allowedIps: ['8.8.8.0/24'], livemode: false });
    expect(result.raw).not.toContain(seller.token);
    expect(result.body.meta.count).toBe(2);
  });
});

describe('PATCH /keys/{id}/allowed-ips', () => {
  it('replaces the list and takes effect at once on this process', async () => {
    const seller = await makeSeller(t);
    const other = await makeKey(t, seller.company.id);
    expect(
      (
        await call(t, {
          method: 'GET',
          url: '/api/seller/v1/whoami',
          headers: { ...other.auth, 'x-forwarded-for': '9.9.9.9' },
        })
      ).status,
    ).toBe(200);
    const result = await call(t, {
      method: 'PATCH',
      url: `${keysUrl}/${other.keyId}/allowed-ips`,
      headers: seller.auth,
      payload: { allowed_ips: ['8.8.8.8', '::FFFF:1.1.1.1'] },
    });
    expect(result.status).toBe(204);
    expect(JSON.parse((await storedKey(other.keyId)).allowed_ips!)).toEqual(['8.8.8.8', '1.1.1.1']);
    const refused = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { ...other.auth, 'x-forwarded-for': '9.9.9.9' },
    });
    expectApiError(refused, 403, 'IP_NOT_ALLOWED');
  });

  it('refuses an empty list for a production key', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'PATCH',
      url: `${keysUrl}/${seller.keyId}/allowed-ips`,
      headers: { ...seller.auth, 'x-forwarded-for': '8.8.8.8' },
      payload: { allowed_ips: [] },
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
  });

  it('answers KEY_ENVIRONMENT_MISMATCH for a key of the other environment of the same company', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const sandbox = await makeKey(t, seller.company.id);
    const result = await call(t, {
      method: 'PATCH',
      url: `${keysUrl}/${seller.keyId}/allowed-ips`,
      headers: sandbox.auth,
      payload: { allowed_ips: ['8.8.8.8'] },
    });
    expectApiError(result, 403, 'KEY_ENVIRONMENT_MISMATCH');
  });
});

describe('POST /keys/{id}/rotate', () => {
  it('returns a new secret once and invalidates the old one immediately', async () => {
    const seller = await makeSeller(t);
    const target = await makeKey(t, seller.company.id);
    expect(
      (await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: target.auth })).status,
    ).toBe(200);
    const result = await call(t, {
      method: 'POST',
      url: `${keysUrl}/${target.keyId}/rotate`,
      headers: seller.auth,
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      id: target.keyId,
      key: expect.stringMatching(/^service_sk_sbx_/),
    });
    expect(result.body.data.key).not.toBe(target.token);
    expectApiError(
      await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: target.auth }),
      401,
      'UNAUTHORIZED',
    );
    const renewed = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { authorization: `Bearer ${result.body.data.key}` },
    });
    expect(renewed.status).toBe(200);
    expect((await storedKey(target.keyId)).rotated_at).not.toBeNull();
  });

  it('refuses to reveal a new secret for a key broader than the caller', async () => {
    const seller = await makeSeller(t, { scopes: ['seller:keys:write'] });
    const broad = await makeKey(t, seller.company.id);
    const before = await storedKey(broad.keyId);
    const result = await call(t, {
      method: 'POST',
      url: `${keysUrl}/${broad.keyId}/rotate`,
      headers: seller.auth,
    });
    expectApiError(result, 403, 'INSUFFICIENT_SCOPE');
    expect((await storedKey(broad.keyId)).token_hash).toBe(before.token_hash);
  });
});

describe('DELETE /keys/{id}', () => {
  it('revokes the key at once on this process', async () => {
    const seller = await makeSeller(t);
    const target = await makeKey(t, seller.company.id);
    expect(
      (await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: target.auth })).status,
    ).toBe(200);
    const result = await call(t, {
      method: 'DELETE',
      url: `${keysUrl}/${target.keyId}`,
      headers: seller.auth,
    });
    expect(result.status).toBe(204);
    expect((await storedKey(target.keyId)).revoked_at).not.toBeNull();
    expectApiError(
      await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: target.auth }),
      401,
      'UNAUTHORIZED',
    );
    expectApiError(
      await call(t, { method: 'DELETE', url: `${keysUrl}/${target.keyId}`, headers: seller.auth }),
      404,
      'NOT_FOUND',
    );
  });
});
