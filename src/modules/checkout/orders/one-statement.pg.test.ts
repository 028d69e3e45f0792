import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { ENGINE, useTestApp } from '../../../../test/harness.js';
import { commitBody, hotDropScenario, reserveBody, seller } from '../../../../test/hot-drop.js';
import { type ProductionScenario, productionOrder, productionScenario } from '../../../../test/production.js';
import { call, expectApiError } from '../../../../test/route-contract.js';
import { carvedOf, keysInPool, pulledOn, recordStatements } from '../../../../test/stored.js';
import { inOwnTransaction } from '../../../db/guarded-writes.js';
import { activityOfOrder, saleLinesOfOrder } from '../../finance/finance.service.js';
import { fulfilEndingTransaction } from './fulfil.service.js';
import { oneStatementPool } from './one-statement.pg.js';
import { commitLine, prepareOrder } from './orders.service.js';

const t = useTestApp();
afterEach(() => vi.restoreAllMocks());

const facts = { contractDate: '2026-09-01', simulate: null, claim: null };
const actorOf = (s: ProductionScenario) => ({
  sellerId: s.sellerId,
  environment: 'production',
  apiKeyId: s.seller.keyId,
});

async function prepared(s: ProductionScenario, overrides: Record<string, unknown> = {}) {
  const done = await prepareOrder(t.ctx, actorOf(s), productionOrder(s, overrides) as never, facts);
  if (!('request' in done)) throw new Error('expected a fresh order');
  return done;
}

/** What an order wrote, without what differs between any two orders (ids, references, times). */
async function written(orderId: string) {
  const order = await t.ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const { id, readable_id, order_reference, created_at, updated_at, revealed_at, ...orderRest } = order;
  const sales = (await saleLinesOfOrder(t.ctx.db, orderId)).map(
    ({ id, order_id, order_reference, created_at, ...rest }) => rest,
  );
  const activity = (await activityOfOrder(t.ctx.db, orderId)).map(
    ({ id, order_id, order_reference, created_at, ...rest }) => rest,
  );
  const keys = await t.ctx.db
    .selectFrom('game_keys')
    .select('state')
    .where('order_id', '=', orderId)
    .execute();
  return { order: orderRest, sales, activity, keys: keys.map((k) => k.state) };
}

const retries = async () => (await t.ctx.metrics.orderFastPathRetries.get()).values[0]?.value ?? 0;

/** POST /orders for the scenario's SKU at the price given. */
const placeAt = (s: ProductionScenario, expectedUnitPriceCents = 5999) =>
  call(t, {
    method: 'POST',
    url: '/api/seller/v1/orders',
    headers: s.seller.auth,
    payload: productionOrder(s, { expectedUnitPriceCents }),
  });

/**
 * PostgreSQL's one-statement order (one-statement.pg.ts) against the transaction it replaces:
 * the same rows, and nothing written when it cannot decide (the locked path then answers).
 */
describe.skipIf(ENGINE !== 'postgres')('the one-statement order (PostgreSQL)', () => {
  it('writes what the order transaction writes', async () => {
    const s = await productionScenario(t, { keyCount: 4 });
    const viaStatement = await prepared(s);
    expect(oneStatementPool(t.ctx.db, viaStatement.request)?.id).toBe(s.poolId);
    const first = await commitLine(t.ctx, viaStatement);

    const viaTransaction = await prepared(s);
    const order = await inOwnTransaction(t.ctx.db, (trx) =>
      fulfilEndingTransaction(t.ctx, trx, viaTransaction.request),
    );

    expect(first.view.keys).toHaveLength(1);
    expect(s.keys).toContain(first.view.keys![0]);
    const a = await written(first.view.orderId);
    expect(order).not.toBeNull();
    const b = await written(order!.order.id);
    expect(a.keys).toEqual(['sold']);
    expect(a.sales).toHaveLength(1);
    expect(a.activity).toHaveLength(1);
    expect(a).toEqual(b);
    expect(await pulledOn(t, s.allocationId)).toBe(2);
  });

  it('writes nothing when the pool is short, and the locked path refuses', async () => {
    const s = await productionScenario(t, { keyCount: 1 });
    const before = await retries();
    const body = productionOrder(s, { quantity: 2 });
    const res = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders',
      headers: s.seller.auth,
      payload: body,
    });
    expectApiError(res, 409, 'NO_AVAILABLE_KEYS');
    expect(await retries()).toBe(before + 1);
    const orders = await t.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('seller_company_id', '=', s.sellerId)
      .execute();
    expect(orders).toEqual([]);
    expect(await keysInPool(t, s.poolId, 'available')).toBe(1);
  });

  it("is, in the steady state, the order's only statement: the quote reads nothing", async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    expect((await placeAt(s)).status).toBe(200);
    const recorded = recordStatements(t);
    expect((await placeAt(s)).status).toBe(200);
    const statements = recorded();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with placed as \(\s*insert into "orders"/);
    expect(statements[0]).toContain('from catalog_version where id = 1 and version = $');
  });

  it('quotes again, reading the catalog version, an order speculating on a catalog changed since', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    expect((await placeAt(s)).status).toBe(200);
    // The operator API changes the price without touching the cache: the next order speculates
    // on the old catalog, and its statement, proving the version, writes nothing.
    await admin(
      t,
      'PUT',
      `/releases/${s.releaseId}/prices`,
      { countryCode: 'US', currencyCode: 'USD', listPriceCents: 6499 },
      200,
    );
    const before = await retries();
    const recorded = recordStatements(t);
    expectApiError(await placeAt(s), 422, 'CATALOG_PRICE_MISMATCH');
    const statements = recorded();
    expect(statements[0]).toMatch(/^with placed as/);
    expect(statements[1]).toMatch(/^select "version" from "catalog_version"/);
    expect(await retries()).toBe(before + 1);
    expect(await keysInPool(t, s.poolId, 'sold')).toBe(1);
    expect((await placeAt(s, 6499)).status).toBe(200);
    expect(await keysInPool(t, s.poolId, 'sold')).toBe(2);
  });

  it('quotes once an order its statement could not prove for another reason: the version read, then the locked path', async () => {
    const s = await productionScenario(t, { keyCount: 5 });
    expect((await placeAt(s)).status).toBe(200);
    // A promise the cached grant does not know: the statement's promise_version check misses.
    await t.ctx.db
      .updateTable('allocations')
      .set((eb) => ({ promise_version: eb('promise_version', '+', 1) }))
      .where('id', '=', s.allocationId)
      .execute();
    const before = await retries();
    const recorded = recordStatements(t);
    expect((await placeAt(s)).status).toBe(200);
    const statements = recorded();
    expect(statements[0]).toMatch(/^with placed as/);
    expect(statements.filter((q) => q.startsWith('select "version" from "catalog_version"'))).toHaveLength(1);
    expect(statements.some((q) => q.includes('from "allocations" where "seller_company_id"'))).toBe(false);
    expect(await retries()).toBe(before + 1);
    expect(await keysInPool(t, s.poolId, 'sold')).toBe(2);
  });

  it('writes nothing when the grant was paused after the quote', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    const quoted = await prepared(s);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'paused' });
    await expect(commitLine(t.ctx, quoted)).rejects.toMatchObject({ code: 'ALLOCATION_NOT_AVAILABLE' });
    expect(await keysInPool(t, s.poolId, 'sold')).toBe(0);
  });

  it('commits a reservation: consumed, its units moved from carved to pulled, nothing retried', async () => {
    const s = await hotDropScenario(t, { keyCount: 6 });
    const post = (path: string, body: Record<string, unknown>) =>
      call(t, { method: 'POST', url: `/api/seller/v1${path}`, headers: seller(s), payload: body });
    const reserved = await post('/orders/reserve', reserveBody(s, { quantity: 2 }));
    expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
    const carved = () => carvedOf(t, s.allocationId);
    const carvedBefore = await carved();
    const before = await retries();

    const committed = await post('/orders/commit', commitBody(s, reserved.body.data.reservationId));
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.data.keys).toHaveLength(2);
    expect(await retries()).toBe(before);
    expect(await carved()).toBe(carvedBefore - 2);
    const reservation = await t.ctx.db
      .selectFrom('reservations')
      .select('status')
      .where('id', '=', reserved.body.data.reservationId)
      .executeTakeFirstOrThrow();
    expect(reservation.status).toBe('consumed');
    const rows = await written(committed.body.data.orderId);
    expect(rows.keys).toEqual(['sold', 'sold']);
    expect(rows.sales).toHaveLength(1);
    // The order names its reservation, written by the statement's own insert.
    expect(rows.order.reservation_id).toBe(reserved.body.data.reservationId);
  });

  it('writes nothing for a commit whose reservation expired mid-commit; the locked path answers 410', async () => {
    const s = await hotDropScenario(t, { keyCount: 3 });
    const reserved = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders/reserve',
      headers: seller(s),
      payload: reserveBody(s),
    });
    const id = reserved.body.data.reservationId as string;
    // As if the commit's quote ran past the expiry: the statement's consume matches nothing.
    await t.ctx.db
      .updateTable('reservations')
      .set({ status: 'committing', expires_at: t.ctx.clock.now() - 1 })
      .where('id', '=', id)
      .execute();
    const quoted = await prepared(s);
    quoted.request.reservation = { id, quantity: 1 };
    const before = await retries();
    await expect(commitLine(t.ctx, quoted)).rejects.toMatchObject({ code: 'RESERVATION_GONE' });
    expect(await retries()).toBe(before + 1);
    expect(await keysInPool(t, s.poolId, 'sold')).toBe(0);
  });
});
