import { describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../src/admin-app.js';
import { alwaysOrder, post } from '../checkout.js';
import { makeSeller } from '../factories.js';
import { ENGINE, useTestApp } from '../harness.js';
import { commitBody, hotDropScenario, reserveBody, seller } from '../hot-drop.js';
import { call, expectApiError } from '../route-contract.js';
import { histogramCount, sampleOf, scrapeMetrics } from './prometheus.js';

const t = useTestApp();
const scrape = () => scrapeMetrics(t);

describe('GET /metrics (operator listener, Prometheus text format)', () => {
  it('moves when an order is placed: orders, keys, request count and latency by route and status', async () => {
    const seller = await makeSeller(t);
    const route = { listener: 'seller', method: 'POST', route: '/api/seller/v1/orders', status: '200' };
    const before = await scrape();
    const order = await post(t, seller, '/orders', alwaysOrder({ quantity: 2 }));
    expect(order.status).toBe(200);
    const after = await scrape();

    const placed = { environment: 'sandbox', kind: 'order', type: 'fulfilled' };
    expect(sampleOf(after, 'sdapi_orders_placed_total', placed)).toBe(
      sampleOf(before, 'sdapi_orders_placed_total', placed) + 1,
    );
    const keys = { environment: 'sandbox', kind: 'order' };
    expect(sampleOf(after, 'sdapi_keys_delivered_total', keys)).toBe(
      sampleOf(before, 'sdapi_keys_delivered_total', keys) + 2,
    );
    expect(sampleOf(after, 'sdapi_http_requests_total', route)).toBe(
      sampleOf(before, 'sdapi_http_requests_total', route) + 1,
    );
    expect(histogramCount(after, 'sdapi_http_request_duration_seconds', route)).toBe(
      histogramCount(before, 'sdapi_http_request_duration_seconds', route) + 1,
    );
    expect(after.find((f) => f.name === 'sdapi_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('counts errors by code, and a replayed order is no new order', async () => {
    const seller = await makeSeller(t);
    const before = await scrape();
    const body = alwaysOrder();
    expect((await post(t, seller, '/orders', body)).status).toBe(200);
    expect((await post(t, seller, '/orders', body)).status).toBe(200);
    const bad = await post(t, seller, '/orders', { ...alwaysOrder(), quantity: 0 });
    expectApiError(bad, 422, 'VALIDATION_FAILED');
    const after = await scrape();
    const placed = { environment: 'sandbox', kind: 'order', type: 'fulfilled' };
    expect(sampleOf(after, 'sdapi_orders_placed_total', placed)).toBe(
      sampleOf(before, 'sdapi_orders_placed_total', placed) + 1,
    );
    const error = { listener: 'seller', code: 'VALIDATION_FAILED', status: '422' };
    expect(sampleOf(after, 'sdapi_http_errors_total', error)).toBe(
      sampleOf(before, 'sdapi_http_errors_total', error) + 1,
    );
  });

  it('counts hot-drop reservations reserved, committed and released', async () => {
    const s = await hotDropScenario(t, { keyCount: 5 });
    const send = (path: string, body: unknown) =>
      call(t, { method: 'POST', url: `/api/seller/v1${path}`, headers: seller(s), payload: body as never });
    const outcome = (name: string) => ({ environment: 'production', outcome: name });
    const before = await scrape();
    const kept = await send('/orders/reserve', reserveBody(s));
    const dropped = await send('/orders/reserve', reserveBody(s));
    expect([kept.status, dropped.status]).toEqual([200, 200]);
    expect((await send('/orders/commit', commitBody(s, kept.body.data.reservationId))).status).toBe(200);
    expect((await send('/orders/cancel', { reservationId: dropped.body.data.reservationId })).status).toBe(
      200,
    );
    const after = await scrape();
    for (const [name, moved] of [
      ['reserved', 2],
      ['committed', 1],
      ['released', 1],
    ] as const) {
      expect(sampleOf(after, 'sdapi_reservations_total', outcome(name))).toBe(
        sampleOf(before, 'sdapi_reservations_total', outcome(name)) + moved,
      );
    }
  });

  it('reports event-loop lag and, on PostgreSQL, the connection pool', async () => {
    const families = await scrape();
    const names = families.map((f) => f.name);
    expect(names).toContain('sdapi_nodejs_eventloop_lag_seconds');
    if (ENGINE === 'postgres') {
      expect(sampleOf(families, 'sdapi_db_pool_connections')).toBeGreaterThan(0);
      expect(names).toContain('sdapi_db_pool_waiting_requests');
    } else {
      // SQLite has one connection and no pool.
      expect(names).not.toContain('sdapi_db_pool_connections');
    }
  });
});

describe('health probes (operator listener)', () => {
  it('live answers 200; ready checks the database', async () => {
    const live = await t.adminApp.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    const ready = await t.adminApp.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });

  it('ready answers 503 SERVICE_UNAVAILABLE while draining, and when a dependency fails', async () => {
    const draining = await buildAdminApp(t.ctx, { isDraining: () => true });
    try {
      const response = await draining.inject({ method: 'GET', url: '/health/ready' });
      expectApiError({ status: response.statusCode, body: response.json() }, 503, 'SERVICE_UNAVAILABLE');
      expect(response.json().details).toMatchObject({ draining: true, checks: { database: 'ok' } });
    } finally {
      await draining.close();
    }
    const database = t.ctx.probes.database!;
    t.ctx.probes.database = () => Promise.reject(new Error('connection refused'));
    try {
      const response = await t.adminApp.inject({ method: 'GET', url: '/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json().details).toMatchObject({
        draining: false,
        checks: { database: 'failed: connection refused' },
      });
    } finally {
      t.ctx.probes.database = database;
    }
  });
});
