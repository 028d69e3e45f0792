import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { loadConfig } from '../../config.js';

describe('the development loopback allowance (SDAPI_DEV_LOOPBACK_ALLOWLIST)', () => {
  let dev: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    dev = await createTestApp({ devLoopbackAllowlist: true });
    plain = await createTestApp();
  });
  afterAll(async () => {
    await dev?.close();
    await plain?.close();
  });
  const whoami = (t: TestApp, headers: Record<string, string>) =>
    call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers });

  it('lets a production key allowlisted elsewhere answer a caller on this machine', async () => {
    const seller = await makeSeller(dev, { environment: 'production' });
    const result = await whoami(dev, seller.auth);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data.environment).toBe('production');
  });

  it('still refuses a forwarded caller from elsewhere, with a hint that can really fix it', async () => {
    const seller = await makeSeller(dev, { environment: 'production' });
    const result = await whoami(dev, { ...seller.auth, 'x-forwarded-for': '9.9.9.9' });
    expectApiError(result, 403, 'IP_NOT_ALLOWED');
    expect(result.body.details).toMatchObject({ keyId: seller.keyId, clientIp: '9.9.9.9' });
    expect(result.body.hint).toContain(`PATCH /keys/${seller.keyId}/allowed-ips`);
    expect(result.body.hint).toContain('another production key');
    expect(result.body.hint).toContain('whose own allowlist includes 9.9.9.9');
  });

  it('without it, a local caller is refused and told about the allowance, not to edit the list with the refused key', async () => {
    const seller = await makeSeller(plain, { environment: 'production' });
    const result = await whoami(plain, seller.auth);
    expectApiError(result, 403, 'IP_NOT_ALLOWED');
    expect(result.body.hint).toContain('SDAPI_DEV_LOOPBACK_ALLOWLIST=1');
    expect(result.body.hint).toContain('no allowlist can hold it');
    expect(result.body.details.docsUrl).toMatch(/\/docs#section\/IP-allowlists$/);
  });

  it('cannot be switched on by a production configuration', () => {
    expect(loadConfig({ SDAPI_DEV_LOOPBACK_ALLOWLIST: '1' }).devLoopbackAllowlist).toBe(true);
    expect(() => loadConfig({ SDAPI_DEV_LOOPBACK_ALLOWLIST: '1', NODE_ENV: 'production' })).toThrow(
      /development setting.*NODE_ENV=production/,
    );
    expect(() =>
      loadConfig({ SDAPI_DEV_LOOPBACK_ALLOWLIST: '1', DATABASE_URL: 'postgres://db/sdapi' }),
    ).toThrow(/development setting.*PostgreSQL/);
    expect(loadConfig({ NODE_ENV: 'production' }).devLoopbackAllowlist).toBe(false);
  });
});
