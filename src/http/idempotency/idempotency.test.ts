import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { OPENED_REPLY_MS } from './idempotency.js';

let probeRuns = 0;
const t = useTestApp({}, (app) => {
  app.post('/api/seller/v1/test-probe', {
    config: { auth: 'seller', idempotency: 'required' },
    // A route that declares no body refuses one: the probe declares what the tests send it.
    schema: {
      body: Type.Object({ fail: Type.Optional(Type.Boolean()), name: Type.Optional(Type.String()) }),
    },
    handler: async (request) => {
      probeRuns += 1;
      const body = request.body as { fail?: boolean } | null;
      if (body?.fail) throw new Error('boom');
      return { data: { run: probeRuns } };
    },
  });
});

const keysUrl = '/api/seller/v1/keys';
const countKeys = async (companyId: string) =>
  (await t.ctx.db.selectFrom('api_keys').select('id').where('company_id', '=', companyId).execute()).length;

describe('Idempotency-Key', () => {
  it('replays the stored reply within 24 h with Idempotency-Replayed: true', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'create-1' };
    const first = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    const second = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    expect(second.status).toBe(201);
    expect(second.headers['idempotency-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await countKeys(seller.company.id)).toBe(2);
  });

  it('treats the same body with its keys reordered as the same request', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'reorder' };
    await call(t, {
      method: 'POST',
      url: keysUrl,
      headers,
      payload: { name: 'a', includeFinanceScope: true },
    });
    const again = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers,
      payload: { includeFinanceScope: true, name: 'a' },
    });
    expect(again.headers['idempotency-replayed']).toBe('true');
  });

  it('opens the sealed reply once for a burst of replays, and again once OPENED_REPLY_MS passed', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'opened-once' };
    const first = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    const open = vi.spyOn(t.ctx.secrets!, 'open');
    try {
      for (let i = 0; i < 3; i++) {
        const again = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
        expect(again.body).toEqual(first.body);
      }
      expect(open).toHaveBeenCalledTimes(1);
      t.ctx.testClock!.advance(OPENED_REPLY_MS / 1000 + 1);
      const later = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
      expect(later.body).toEqual(first.body);
      expect(open).toHaveBeenCalledTimes(2);
    } finally {
      open.mockRestore();
    }
  });

  it('answers IDEMPOTENCY_KEY_MISMATCH for a replayed key sent with the same body to another route', async () => {
    const seller = await makeSeller(t);
    const before = probeRuns;
    const headers = { ...seller.auth, 'idempotency-key': 'other-route' };
    const payload = { name: 'a' };
    await call(t, { method: 'POST', url: keysUrl, headers, payload });
    const replayed = await call(t, { method: 'POST', url: keysUrl, headers, payload });
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    const elsewhere = await call(t, { method: 'POST', url: '/api/seller/v1/test-probe', headers, payload });
    expectApiError(elsewhere, 422, 'IDEMPOTENCY_KEY_MISMATCH');
    expect(probeRuns).toBe(before);
  });

  it('after replays answered from memory, still tells another body (a mismatch) from reordered keys (a replay)', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'remembered' };
    const payload = { name: 'a', includeFinanceScope: true };
    const first = await call(t, { method: 'POST', url: keysUrl, headers, payload });
    for (let i = 0; i < 2; i++) {
      const again = await call(t, { method: 'POST', url: keysUrl, headers, payload });
      expect(again.status).toBe(201);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    const other = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'b' } });
    expectApiError(other, 422, 'IDEMPOTENCY_KEY_MISMATCH');
    const reordered = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers,
      payload: { includeFinanceScope: true, name: 'a' },
    });
    expect(reordered.headers['idempotency-replayed']).toBe('true');
    expect(reordered.body).toEqual(first.body);
    expect(await countKeys(seller.company.id)).toBe(2);
  });

  it('answers IDEMPOTENCY_KEY_MISMATCH for the same key with another body and changes nothing', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'create-2' };
    await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    const result = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'b' } });
    expectApiError(result, 422, 'IDEMPOTENCY_KEY_MISMATCH');
    expect(await countKeys(seller.company.id)).toBe(2);
  });

  it('runs again after the 24 h window', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'create-3' };
    await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    t.ctx.testClock!.advance(24 * 3600 + 1);
    const later = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    expect(later.status).toBe(201);
    expect(later.headers['idempotency-replayed']).toBeUndefined();
    expect(await countKeys(seller.company.id)).toBe(3);
  });

  it('keeps keys apart per company', async () => {
    const a = await makeSeller(t);
    const b = await makeSeller(t);
    await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: { ...a.auth, 'idempotency-key': 'shared' },
      payload: { name: 'a' },
    });
    const other = await call(t, {
      method: 'POST',
      url: keysUrl,
      headers: { ...b.auth, 'idempotency-key': 'shared' },
      payload: { name: 'a' },
    });
    expect(other.status).toBe(201);
    expect(other.headers['idempotency-replayed']).toBeUndefined();
  });

  it('answers 400 BAD_REQUEST when a route requires the header and it is missing', async () => {
    const seller = await makeSeller(t);
    const before = probeRuns;
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/test-probe',
      headers: seller.auth,
      payload: {},
    });
    expectApiError(result, 400, 'BAD_REQUEST');
    expect(probeRuns).toBe(before);
  });

  it('does not store a server fault: the same key runs again', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'flaky' };
    const failed = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/test-probe',
      headers,
      payload: { fail: true },
    });
    expectApiError(failed, 500, 'INTERNAL_ERROR');
    expect(failed.raw).not.toContain('boom');
    const stored = await t.ctx.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('idempotency_key', '=', 'flaky')
      .execute();
    expect(stored).toHaveLength(0);
  });

  it('answers simulated in-flight and errors with live codes, then succeeds on the same key without the header', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'sim' };
    for (const [value, status, code] of [
      ['idempotency_in_flight', 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS'],
      ['internal_error', 500, 'INTERNAL_ERROR'],
      ['rate_limit', 429, 'RATE_LIMIT_EXCEEDED'],
      ['hot_path_timeout', 503, 'HOT_PATH_TIMEOUT'],
    ] as const) {
      const simulated = await call(t, {
        method: 'POST',
        url: keysUrl,
        headers: { ...headers, 'x-service-sandbox-simulate': value },
        payload: { name: 'a' },
      });
      expectApiError(simulated, status, code);
    }
    expect(await countKeys(seller.company.id)).toBe(1);
    const real = await call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'a' } });
    expect(real.status).toBe(201);
    expect(real.headers['idempotency-replayed']).toBeUndefined();
  });

  it('executes once when 50 identical requests with one key arrive together', async () => {
    const seller = await makeSeller(t);
    const headers = { ...seller.auth, 'idempotency-key': 'burst' };
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(t, { method: 'POST', url: keysUrl, headers, payload: { name: 'burst' } }),
      ),
    );
    expect(await countKeys(seller.company.id)).toBe(2);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.data.key)).size).toBe(1);
    for (const r of results.filter((r) => r.status !== 201))
      expectApiError(r, 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
  });

  it('executes each of 10 keys once when each arrives 5 times, all together', async () => {
    const seller = await makeSeller(t);
    const before = probeRuns;
    const keys = Array.from({ length: 10 }, (_, i) => `interleaved-${i}`);
    const results = await Promise.all(
      [0, 1, 2, 3, 4].flatMap(() =>
        keys.map((key) =>
          call(t, {
            method: 'POST',
            url: '/api/seller/v1/test-probe',
            headers: { ...seller.auth, 'idempotency-key': key },
            payload: {},
          }),
        ),
      ),
    );
    expect(probeRuns - before).toBe(10);
    const runsByKey = new Map<string, Set<number>>();
    results.forEach((r, i) => {
      if (r.status !== 200) {
        expectApiError(r, 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
        return;
      }
      const key = keys[i % keys.length]!;
      runsByKey.set(key, (runsByKey.get(key) ?? new Set()).add(r.body.data.run));
    });
    for (const runs of runsByKey.values()) expect(runs.size).toBe(1);
  });
});
