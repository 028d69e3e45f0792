import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSeller, type TestSeller } from '../factories.js';
import { fuzzOperations, fuzzRawHttp } from '../fuzz/run.js';
import { ADMIN_TOKEN, ENGINE, useTestApp } from '../harness.js';
import { call } from '../route-contract.js';

/** FUZZ_SEED replays a run; FUZZ_REQUESTS lengthens it (the bench runs 100,000). */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2500);
const PEER = '8.8.8.8';

const t = useTestApp();
let sandbox: TestSeller;
let production: TestSeller;

beforeAll(async () => {
  sandbox = await makeSeller(t);
  production = await makeSeller(t, { environment: 'production' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});

async function expectHealthy() {
  expect((await call(t, { method: 'GET', url: '/api/seller/v1/health' })).status).toBe(200);
  for (const seller of [sandbox, production]) {
    const whoami = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: seller.auth,
      remoteAddress: PEER,
    });
    expect(whoami.status).toBe(200);
  }
}

describe(`fuzzing from the served OpenAPI document (${ENGINE}, seed ${SEED})`, () => {
  it(`${REQUESTS} generated bad requests: no 5xx, every 4xx in the envelope, healthy after`, async () => {
    const report = await fuzzOperations(t.app, '/api/seller/v1/openapi.json', {
      seed: SEED,
      requests: REQUESTS,
      auth: [sandbox.auth, production.auth],
      remoteAddress: PEER,
    });
    expect(report.examples).toEqual([]);
    expect(report.serverErrors).toBe(0);
    expect(report.envelopeViolations).toBe(0);
    // The run reached handlers, not only the edge: some requests pass validation.
    expect(Object.keys(report.statuses).some((s) => Number(s) < 300)).toBe(true);
    expect(report.statuses[422]).toBeGreaterThan(0);
    await expectHealthy();
  }, 120_000);

  it('the operator document too: no 5xx, every 4xx in the envelope', async () => {
    const report = await fuzzOperations(t.app, '/admin/v1/openapi.json', {
      seed: SEED,
      requests: Math.ceil(REQUESTS / 3),
      auth: [{ authorization: `Bearer ${ADMIN_TOKEN}` }],
      remoteAddress: PEER,
    });
    expect(report.examples).toEqual([]);
    expect(report.serverErrors + report.envelopeViolations).toBe(0);
    await expectHealthy();
  }, 120_000);

  it('malformed HTTP over a raw socket: every answer in the envelope, healthy after', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const report = await fuzzRawHttp(port, SEED, 60);
    expect(report.examples).toEqual([]);
    expect(report.statuses[400]).toBeGreaterThan(0);
    await expectHealthy();
  }, 60_000);
});
