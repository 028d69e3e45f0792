import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { createCompany } from '../../modules/companies/companies.service.js';

const t = useTestApp();
const whoami = (headers: Record<string, string>) =>
  call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers });

describe('bearer parsing', () => {
  it.each([
    ['no header', undefined, 'missing_authorization'],
    ['a doubled Bearer', (k: string) => `Bearer Bearer ${k}`, 'malformed_authorization'],
    ['quotes', (k: string) => `Bearer "${k}"`, 'not_a_seller_api_key'],
    ['a trailing space', (k: string) => `Bearer ${k} `, 'malformed_authorization'],
    ['two spaces', (k: string) => `Bearer  ${k}`, 'malformed_authorization'],
    ['another scheme', (k: string) => `Basic ${k}`, 'malformed_authorization'],
    ['a foreign token', () => 'Bearer sk_test_abcdefabcdefabcdef', 'not_a_seller_api_key'],
  ])('refuses %s with 401 UNAUTHORIZED', async (_label, header, reason) => {
    const seller = await makeSeller(t);
    const headers: Record<string, string> = header ? { authorization: header(seller.token) } : {};
    const result = await whoami(headers);
    expectApiError(result, 401, 'UNAUTHORIZED');
    expect(result.body.details.reason).toBe(reason);
  });

  it('refuses non-ASCII in the token', async () => {
    const seller = await makeSeller(t);
    const result = await whoami({ authorization: `Bearer ${seller.token.slice(0, -1)}é` });
    expectApiError(result, 401, 'UNAUTHORIZED');
  });

  it('accepts the scheme in any case', async () => {
    const seller = await makeSeller(t);
    expect((await whoami({ authorization: `bearer ${seller.token}` })).status).toBe(200);
  });

  it('issues typed prefixes per environment', async () => {
    const sandbox = await makeSeller(t);
    const production = await makeSeller(t, { environment: 'production' });
    expect(sandbox.token).toMatch(/^service_sk_sbx_[0-9a-z]{40}$/);
    expect(production.token).toMatch(/^service_sk_live_[0-9a-z]{40}$/);
  });

  it('refuses a token whose environment prefix disagrees with the stored key', async () => {
    const seller = await makeSeller(t);
    const forged = seller.token.replace('service_sk_sbx_', 'service_sk_live_');
    expectApiError(await whoami({ authorization: `Bearer ${forged}` }), 401, 'UNAUTHORIZED');
  });
});

describe('key state checked on every request', () => {
  it('refuses an expired key even when it is cached', async () => {
    const seller = await makeSeller(t, { expiresAt: t.ctx.clock.now() + 30_000 });
    expect((await whoami(seller.auth)).status).toBe(200);
    t.ctx.testClock!.advance(31);
    const result = await whoami(seller.auth);
    expectApiError(result, 401, 'UNAUTHORIZED');
    expect(result.body.details.reason).toBe('key_expired');
  });

  it('refuses a key with an empty scope set on every request', async () => {
    const seller = await makeSeller(t);
    await t.ctx.db.updateTable('api_keys').set({ scopes: '[]' }).where('id', '=', seller.keyId).execute();
    const result = await whoami(seller.auth);
    expectApiError(result, 401, 'UNAUTHORIZED');
    expect(result.body.details.reason).toBe('empty_scope_set');
  });

  it('serves a cached principal for about 60 s, then reloads it', async () => {
    const seller = await makeSeller(t);
    expect((await whoami(seller.auth)).status).toBe(200);
    await t.ctx.db.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', seller.keyId).execute();
    expect((await whoami(seller.auth)).status).toBe(200);
    t.ctx.testClock!.advance(61);
    expectApiError(await whoami(seller.auth), 401, 'UNAUTHORIZED');
  });
});

describe('production gates', () => {
  it('refuses every request of a production key without production access', async () => {
    const seller = await makeSeller(t, { environment: 'production', productionAccess: false });
    const result = await whoami({ ...seller.auth, 'x-forwarded-for': '8.8.8.8' });
    expectApiError(result, 403, 'PRODUCTION_ACCESS_NOT_APPROVED');
  });

  it('refuses to create a production key before the API agreement is signed', async () => {
    const company = await createCompany(t.ctx, { name: 'Unsigned', productionAccess: true }, t.ctx.db);
    await expect(makeKey(t, company.id, { environment: 'production' })).rejects.toMatchObject({
      code: 'API_MODEL_AGREEMENT_REQUIRED',
    });
    const keys = await t.ctx.db
      .selectFrom('api_keys')
      .select('id')
      .where('company_id', '=', company.id)
      .execute();
    expect(keys).toHaveLength(0);
  });

  it('refuses to create a production key without an IP allowlist', async () => {
    const company = await createCompany(
      t.ctx,
      {
        name: 'Signed',
        productionAccess: true,
        apiAgreementSigned: true,
      },
      t.ctx.db,
    );
    await expect(makeKey(t, company.id, { environment: 'production', allowedIps: [] })).rejects.toMatchObject(
      {
        code: 'VALIDATION_FAILED',
      },
    );
  });

  it('refuses the sandbox simulate header from a production key', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const result = await whoami({
      ...seller.auth,
      'x-forwarded-for': '8.8.8.8',
      'x-service-sandbox-simulate': 'internal_error',
    });
    expectApiError(result, 403, 'KEY_ENVIRONMENT_MISMATCH');
  });
});

describe('IP allowlist', () => {
  it('admits an address inside the list', async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24', '2001:4860::/32'] });
    expect((await whoami({ ...seller.auth, 'x-forwarded-for': '8.8.8.8' })).status).toBe(200);
    expect((await whoami({ ...seller.auth, 'x-real-ip': '2001:4860::8888' })).status).toBe(200);
  });

  it('refuses an address outside the list without echoing the list', async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24', '1.1.1.1'] });
    const result = await whoami({ ...seller.auth, 'x-forwarded-for': '9.9.9.9' });
    expectApiError(result, 403, 'IP_NOT_ALLOWED');
    expect(result.body.details).toMatchObject({
      clientIp: '9.9.9.9',
      allowedIpsCount: 2,
      docsUrl: expect.any(String),
    });
    expect(result.raw).not.toContain('8.8.8.0');
  });

  it('checks the allowlist on auth-cache hits too', async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24'] });
    expect((await whoami({ ...seller.auth, 'x-forwarded-for': '8.8.8.8' })).status).toBe(200);
    expectApiError(await whoami({ ...seller.auth, 'x-forwarded-for': '9.9.9.9' }), 403, 'IP_NOT_ALLOWED');
  });

  it('answers IP_NOT_RESOLVABLE when the forwarded address is garbage', async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24'] });
    expectApiError(
      await whoami({ ...seller.auth, 'x-forwarded-for': 'not-an-ip' }),
      403,
      'IP_NOT_RESOLVABLE',
    );
  });

  it('prefers the edge header over x-real-ip and x-forwarded-for', async () => {
    const seller = await makeSeller(t, { allowedIps: ['8.8.8.0/24'] });
    const result = await whoami({
      ...seller.auth,
      'x-vercel-forwarded-for': '8.8.8.8',
      'x-real-ip': '9.9.9.9',
      'x-forwarded-for': '9.9.9.9',
    });
    expect(result.status).toBe(200);
  });
});

describe('scopes', () => {
  it('names the missing scope', async () => {
    const seller = await makeSeller(t, { scopes: ['seller:products:read'] });
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/keys', headers: seller.auth });
    expectApiError(result, 403, 'INSUFFICIENT_SCOPE');
    expect(result.body.message).toContain('seller:keys:write');
  });
});

describe('one kept-alive connection', () => {
  it('authenticates each request as the key it sends, whichever key came before on the connection', async () => {
    const a = await makeSeller(t);
    const b = await makeSeller(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (authorization: string) =>
      new Promise<{ status: number; companyId: string | undefined; reused: boolean }>((resolve, reject) => {
        const req = request(
          { port, host: '127.0.0.1', path: '/api/seller/v1/whoami', agent, headers: { authorization } },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                companyId: JSON.parse(body).data?.companyId,
                reused: req.reusedSocket,
              }),
            );
          },
        );
        req.on('error', reject).end();
      });
    try {
      expect(await get(a.auth.authorization)).toEqual({
        status: 200,
        companyId: a.company.id,
        reused: false,
      });
      expect(await get(b.auth.authorization)).toEqual({ status: 200, companyId: b.company.id, reused: true });
      // The key with its last character changed (to one it is not: a random key may end in x).
      const key = b.auth.authorization;
      expect((await get(`${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`)).status).toBe(401);
      expect(await get(a.auth.authorization)).toEqual({ status: 200, companyId: a.company.id, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
