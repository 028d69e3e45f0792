import { describe, expect, it, vi } from 'vitest';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { storedRequestCount } from '../../../test/request-log.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { keepDayPartitions } from '../../db/day-partitions.js';
import { DAY_PARTITIONED } from '../../jobs/partition-upkeep.js';
import { purgeOldRequests } from './request-log.service.js';

const t = useTestApp();
const API = '/api/seller/v1';

describeRouteContract('GET /request-logs', t, {
  method: 'GET',
  url: () => `${API}/request-logs`,
  scopes: ['seller:keys:write', 'seller:account:manage'],
  badInput: { url: `${API}/request-logs?status=abc` },
});

describe('the request log', () => {
  it('records a success without its body and a failure with its ApiError, findable by requestId', async () => {
    const seller = await makeSeller(t);
    const ok = await call(t, {
      method: 'POST',
      url: `${API}/keys`,
      headers: seller.auth,
      payload: { name: 'child' },
    });
    expect(ok.status).toBe(201);
    const bad = await call(t, {
      method: 'POST',
      url: `${API}/keys?x=1`,
      headers: seller.auth,
      payload: { name: 42 },
    });
    expect(bad.status).toBe(422);
    const failed = await call(t, {
      method: 'GET',
      url: `${API}/request-logs?requestId=${bad.body.requestId}`,
      headers: seller.auth,
    });
    expect(failed.status).toBe(200);
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({
      requestId: bad.body.requestId,
      method: 'POST',
      route: `${API}/keys`,
      path: `${API}/keys`,
      status: 422,
      errorCode: 'VALIDATION_FAILED',
      keyId: seller.keyId,
      error: { code: 'VALIDATION_FAILED', requestId: bad.body.requestId },
    });
    const all = await call(t, {
      method: 'GET',
      url: `${API}/request-logs?route=${API}/keys`,
      headers: seller.auth,
    });
    const success = all.body.data.find((row: { status: number }) => row.status === 201);
    expect(success).toMatchObject({ error: null, errorCode: null });
    const stored = await t.ctx.db
      .selectFrom('request_log')
      .selectAll()
      .where('company_id', '=', seller.company.id)
      .execute();
    const text = JSON.stringify(stored);
    expect(text).not.toContain(seller.token);
    expect(text).not.toContain(ok.body.data.key);
    expect(text).not.toContain('127.0.0.1');
    const errors = await call(t, {
      method: 'GET',
      url: `${API}/request-logs?status=4xx`,
      headers: seller.auth,
    });
    expect(errors.body.data.map((row: { status: number }) => row.status)).toEqual([422]);
  });

  it('shows a company only its own requests, in the console too', async () => {
    const owner = await consoleUser(t, 'owner');
    const stranger = await makeSeller(t);
    const theirs = await call(t, { method: 'GET', url: `${API}/whoami`, headers: stranger.auth });
    await call(t, { method: 'GET', url: `${API}/whoami`, headers: owner.seller.auth });
    const mine = await consoleCall(t, owner, 'GET', '/request-logs');
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.raw).not.toContain(theirs.headers['x-request-id'] as string);
    const byId = await consoleCall(
      t,
      owner,
      'GET',
      `/request-logs?requestId=${theirs.headers['x-request-id']}`,
    );
    expect(byId.body.data).toEqual([]);
  });

  it("opens one request by its id in the console, and another company's as not found", async () => {
    const owner = await consoleUser(t, 'owner');
    const stranger = await makeSeller(t);
    const mine = await call(t, {
      method: 'POST',
      url: `${API}/keys`,
      headers: owner.seller.auth,
      payload: { name: 'x'.repeat(101) },
    });
    expect(mine.status).toBe(422);
    const theirs = await call(t, { method: 'GET', url: `${API}/whoami`, headers: stranger.auth });
    const opened = await consoleCall(t, owner, 'GET', `/request-logs/${mine.body.requestId}`);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({
      requestId: mine.body.requestId,
      method: 'POST',
      status: 422,
      errorCode: 'VALIDATION_FAILED',
      keyId: owner.seller.keyId,
      error: { code: 'VALIDATION_FAILED', doc_url: expect.stringContaining('/docs#error-VALIDATION_FAILED') },
    });
    expectApiError(
      await consoleCall(t, owner, 'GET', `/request-logs/${theirs.headers['x-request-id']}`),
      404,
      'NOT_FOUND',
    );
    expectApiError(await consoleCall(t, owner, 'GET', '/request-logs/req_unknown'), 404, 'NOT_FOUND');
    expectApiError(
      await consoleCall(t, owner, 'GET', `/request-logs/${mine.body.requestId}?x=1`),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('names the keys that made requests for the key filter, and filters by one', async () => {
    const owner = await consoleUser(t, 'owner');
    const stranger = await makeSeller(t);
    await call(t, { method: 'GET', url: `${API}/whoami`, headers: owner.seller.auth });
    await call(t, { method: 'GET', url: `${API}/whoami`, headers: stranger.auth });
    const keys = await consoleCall(t, owner, 'GET', '/request-logs/keys');
    expect(keys.status).toBe(200);
    expect(keys.body.data).toEqual([{ id: owner.seller.keyId, name: expect.any(String) }]);
    const byKey = await consoleCall(t, owner, 'GET', `/request-logs?keyId=${owner.seller.keyId}`);
    expect(byKey.body.data.length).toBeGreaterThan(0);
    const foreign = await consoleCall(t, owner, 'GET', `/request-logs?keyId=${stranger.keyId}`);
    expect(foreign.body.data).toEqual([]);
    expectApiError(
      await consoleCall(t, owner, 'GET', '/request-logs/keys?keyName=a'),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('bounds the log by a time span and refuses one whose end is not after its start', async () => {
    const owner = await consoleUser(t, 'owner');
    await call(t, { method: 'GET', url: `${API}/whoami`, headers: owner.seller.auth });
    const now = t.ctx.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const inside = await consoleCall(
      t,
      owner,
      'GET',
      `/request-logs?since=${iso(now - 60_000)}&until=${iso(now + 60_000)}`,
    );
    expect(inside.body.data.length).toBeGreaterThan(0);
    const before = await consoleCall(t, owner, 'GET', `/request-logs?until=${iso(now - 60_000)}`);
    expect(before.body.data).toEqual([]);
    const backwards = await consoleCall(
      t,
      owner,
      'GET',
      `/request-logs?since=${iso(now)}&until=${iso(now - 60_000)}`,
    );
    expectApiError(backwards, 422, 'VALIDATION_FAILED');
    expect(backwards.body.details.issues).toEqual([
      expect.objectContaining({ field: 'until', in: 'query', keyword: 'range' }),
    ]);
  });

  it('pages with a cursor and refuses unknown parameters', async () => {
    const seller = await makeSeller(t);
    for (let i = 0; i < 3; i++) await call(t, { method: 'GET', url: `${API}/whoami`, headers: seller.auth });
    const first = await call(t, { method: 'GET', url: `${API}/request-logs?limit=2`, headers: seller.auth });
    expect(first.body.data).toHaveLength(2);
    const second = await call(t, {
      method: 'GET',
      url: `${API}/request-logs?limit=2&cursor=${first.body.meta.nextCursor}`,
      headers: seller.auth,
    });
    const ids = [...first.body.data, ...second.body.data].map((row: { requestId: string }) => row.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    expectApiError(
      await call(t, { method: 'GET', url: `${API}/request-logs?ip=1`, headers: seller.auth }),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('removes rows older than 14 days (SQLite deletes them, PostgreSQL drops their days)', async () => {
    const seller = await makeSeller(t);
    await call(t, { method: 'GET', url: `${API}/whoami`, headers: seller.auth });
    await call(t, { method: 'GET', url: `${API}/request-logs`, headers: seller.auth });
    const count = () => storedRequestCount(t, seller.company.id);
    // Both written (the second by the recorder's timer) before the clock moves past them.
    await vi.waitFor(async () => expect(await count()).toBe(2), { timeout: 5_000 });
    t.ctx.testClock!.advance(15 * 86_400);
    while (await purgeOldRequests(t.ctx, 2)) {}
    await keepDayPartitions(t.ctx.db, t.ctx.clock.now(), DAY_PARTITIONED);
    expect(await count()).toBe(0);
  });

  it('an error carrying consoleAction also carries the console page that fixes it', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const refused = await call(t, { method: 'GET', url: `${API}/whoami`, headers: seller.auth });
    expectApiError(refused, 403, 'IP_NOT_ALLOWED');
    expect(refused.body.details).toMatchObject({
      consoleAction: 'manage_api_keys',
      consoleUrl: `${t.config.publicUrl}/console/keys`,
    });
  });
});
