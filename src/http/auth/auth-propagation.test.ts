import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { createTestApp } from '../../../test/harness.js';
import { observeOpenApi } from '../../../test/openapi-observer.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { buildApp, SELLER_PREFIX } from '../../app.js';
import { createContext } from '../../create-context.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

async function redisUp(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.quit();
    return true;
  } catch (err) {
    probe.disconnect();
    if (process.env.CI === 'true') throw new Error(`Redis is required under CI: ${String(err)}`);
    return false;
  }
}

const available = await redisUp();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  const results: PromiseSettledResult<unknown>[] = [];
  for (const close of closers.reverse()) results.push(...(await Promise.allSettled([close()])));
  for (const result of results) if (result.status === 'rejected') throw result.reason;
});

describe.skipIf(!available)('auth cache across processes (REDIS_URL)', () => {
  it('a revocation on one process stops the key on another at once', async () => {
    const a = await createTestApp({ redisUrl: REDIS_URL });
    closers.push(() => a.close());
    const ctxB = await createContext(a.config, a.handle);
    const b = { ...a, ctx: ctxB, app: await buildApp(ctxB) };
    // The second process's replies are held to the seller document as the harness app's are.
    const docs = observeOpenApi(b.app, `${SELLER_PREFIX}/openapi.json`, 'seller');
    await b.app.ready();
    await docs.ready();
    closers.push(
      () => docs.finish(),
      () => b.app.close(),
      () => ctxB.close(),
    );

    const victim = await makeSeller(a);
    const whoamiOnB = () => call(b, { method: 'GET', url: '/api/seller/v1/whoami', headers: victim.auth });
    expect((await whoamiOnB()).status).toBe(200);

    const sameCompanyKey = await call(a, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: victim.auth,
      payload: { name: 'x' },
    });
    expect(sameCompanyKey.status).toBe(201);
    const revoke = await call(a, {
      method: 'DELETE',
      url: `/api/seller/v1/keys/${victim.keyId}`,
      headers: { authorization: `Bearer ${sameCompanyKey.body.data.key}` },
    });
    expect(revoke.status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectApiError(await whoamiOnB(), 401, 'UNAUTHORIZED');
  });
});
