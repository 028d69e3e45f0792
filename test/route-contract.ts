import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../src/http/auth/scopes.js';
import { makeSeller, type TestSeller } from './factories.js';
import type { TestApp } from './harness.js';

export interface RouteUnderTest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path of a valid request for `seller` (a resource it owns, when the route has one). */
  url: (t: TestApp, seller: TestSeller) => Promise<string> | string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Scopes any one of which admits the request; omitted for routes open to every key. */
  scopes?: Scope[];
  /** A request for a resource of another company: must answer 404 NOT_FOUND. */
  otherCompanyUrl?: (t: TestApp, owner: TestSeller) => Promise<string> | string;
  /** A malformed request and the code it must answer. */
  badInput?: { url?: string; body?: unknown; code?: string; status?: number };
}

export async function call(t: TestApp, options: InjectOptions) {
  const response = await t.app.inject(options);
  const json =
    response.headers['content-type']?.toString().startsWith('application/json') && response.body
      ? response.json()
      : null;
  return { status: response.statusCode, body: json, headers: response.headers, raw: response.body };
}

export function expectApiError(result: { status: number; body: unknown }, status: number, code: string) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body).toMatchObject({
    code,
    message: expect.any(String),
    recoverable: expect.any(Boolean),
    hint: expect.any(String),
    doc_url: expect.stringContaining(code),
    requestId: expect.stringMatching(/^req_/),
    details: expect.any(Object),
  });
}

/** The checks every seller route must pass: no key, bad key, missing scope, other company, bad input. */
export function describeRouteContract(name: string, t: TestApp, route: RouteUnderTest) {
  describe(`${name}: shared route contract`, () => {
    const send = async (seller: TestSeller, extra: Partial<InjectOptions> = {}) =>
      call(t, {
        method: route.method,
        url: await route.url(t, seller),
        payload: route.body as InjectOptions['payload'],
        headers: { ...route.headers, ...(extra.headers as Record<string, string>) },
        ...extra,
      });

    it('answers 401 UNAUTHORIZED without a key', async () => {
      const seller = await makeSeller(t);
      const result = await send(seller, { headers: { ...route.headers } });
      expectApiError(result, 401, 'UNAUTHORIZED');
      expect(result.headers['x-api-version']).toBe('1');
    });

    it('answers 401 UNAUTHORIZED for an unknown key', async () => {
      const seller = await makeSeller(t);
      const result = await send(seller, {
        headers: { ...route.headers, authorization: 'Bearer service_sk_sbx_0000000000000000000000000000' },
      });
      expectApiError(result, 401, 'UNAUTHORIZED');
    });

    if (route.scopes) {
      const needed = route.scopes;
      it(`answers 403 INSUFFICIENT_SCOPE without ${needed.join(' or ')}`, async () => {
        const others = SCOPES.filter((s) => !needed.includes(s));
        const seller = await makeSeller(t, { scopes: others });
        const result = await send(seller, { headers: { ...route.headers, ...seller.auth } });
        expectApiError(result, 403, 'INSUFFICIENT_SCOPE');
        expect(result.body.message).toContain(needed[0]);
      });
    }

    if (route.otherCompanyUrl) {
      const otherUrl = route.otherCompanyUrl;
      it("answers 404 NOT_FOUND for another company's resource", async () => {
        const owner = await makeSeller(t);
        const intruder = await makeSeller(t);
        const result = await call(t, {
          method: route.method,
          url: await otherUrl(t, owner),
          payload: route.body as InjectOptions['payload'],
          headers: { ...route.headers, ...intruder.auth },
        });
        expectApiError(result, 404, 'NOT_FOUND');
      });
    }

    if (route.badInput) {
      const bad = route.badInput;
      it(`answers ${bad.status ?? 422} ${bad.code ?? 'VALIDATION_FAILED'} for bad input`, async () => {
        const seller = await makeSeller(t);
        const result = await call(t, {
          method: route.method,
          url: bad.url ?? (await route.url(t, seller)),
          payload: (bad.body ?? route.body) as InjectOptions['payload'],
          headers: { ...route.headers, ...seller.auth },
        });
        expectApiError(result, bad.status ?? 422, bad.code ?? 'VALIDATION_FAILED');
      });
    }
  });
}
