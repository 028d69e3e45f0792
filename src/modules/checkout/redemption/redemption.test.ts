import { describe, expect, it } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { alwaysOrder, post } from '../../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../../test/factories.js';
import { ENGINE, useTestApp } from '../../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../../test/route-contract.js';
import { SCOPES } from '../../../http/auth/scopes.js';
import { REDEMPTION_TTL_MS } from '../orders/fulfil.service.js';

const t = useTestApp();

async function keylessSeller(): Promise<TestSeller> {
  const seller = await makeSeller(t, { scopes: [...SCOPES] });
  await admin(t, 'PATCH', `/companies/${seller.company.id}`, { keylessEnabled: true });
  return seller;
}

async function keylessOrder(seller: TestSeller, overrides: Record<string, unknown> = {}) {
  const body = alwaysOrder({ skuCode: 'SANDBOX-KEYLESS-001', ...overrides });
  const order = await post(t, seller, '/orders', body);
  expect(order.status, JSON.stringify(order.body)).toBe(200);
  return { body, data: order.body.data };
}

const pathOf = (url: string) => new URL(url).pathname;
const page = (url: string) => t.app.inject({ method: 'GET', url: pathOf(url) });
const reveal = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: `${pathOf(url)}/reveal`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });

async function plaintextOf(orderId: string) {
  const keys = await t.ctx.db.selectFrom('game_keys').selectAll().where('order_id', '=', orderId).execute();
  return keys.map((k) => t.ctx.secrets!.open(k.ciphertext));
}

const revealEntries = (orderId: string) =>
  t.ctx.db
    .selectFrom('activity_entries')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('kind', '=', 'reveal')
    .execute();

describe(`hosted redemption of keyless keys (${ENGINE})`, () => {
  it('answers the buyer an unguessable link, kept out of events, the aggregate and the stored rows', async () => {
    const seller = await keylessSeller();
    const { body, data } = await keylessOrder(seller);
    expect(data.keys).toEqual([]);
    const url: string = data.redemption.url;
    expect(url).toMatch(/\/redeem\/[A-Za-z0-9_-]{43}$/);
    const token = url.split('/').pop()!;

    const other = await keylessOrder(seller);
    expect(other.data.redemption.url).not.toBe(url);
    // The replay shows the same link again.
    const replay = await post(t, seller, '/orders', body);
    expect(replay.body.data.redemption.url).toBe(url);

    const events = await t.ctx.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('company_id', '=', seller.company.id)
      .execute();
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(token);
    const record = await t.ctx.db
      .selectFrom('redemptions')
      .selectAll()
      .where('order_id', '=', data.orderId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(record)).not.toContain(token);
    const listed = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/orders/${data.orderReadableId}`,
      headers: seller.auth,
    });
    expect(listed.status).toBe(200);
    expect(listed.raw).not.toContain(token);
  });

  it('shows product, platform and instructions, reveals the key on request, and records one reveal (0)', async () => {
    const seller = await keylessSeller();
    const { data } = await keylessOrder(seller);
    const [key] = await plaintextOf(data.orderId);

    const shown = await page(data.redemption.url);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toContain('text/html');
    expect(shown.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(shown.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    expect(shown.body).toContain('Sandbox Keyless');
    expect(shown.body).toContain('Steam');
    expect(shown.body).toContain('How to activate');
    expect(shown.body).not.toContain(key);
    expect(await revealEntries(data.orderId)).toEqual([]);

    const revealed = await reveal(data.redemption.url);
    expect(revealed.statusCode).toBe(200);
    expect(revealed.body).toContain(key);
    const again = await reveal(data.redemption.url);
    expect(again.body).toContain(key);
    const entries = await revealEntries(data.orderId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ sign: 0, quantity: 1, order_reference: data.orderReference });
    const order = await t.ctx.db
      .selectFrom('orders')
      .select('revealed_at')
      .where('id', '=', data.orderId)
      .executeTakeFirstOrThrow();
    expect(order.revealed_at).not.toBeNull();
    const activity = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/activity?kinds=reveal&orderReference=${data.orderReference}`,
      headers: seller.auth,
    });
    expect(activity.body.data).toHaveLength(1);
  });

  it('answers a clear page, never the key, for unknown, expired and revoked links', async () => {
    const seller = await keylessSeller();
    const { data } = await keylessOrder(seller);
    const [key] = await plaintextOf(data.orderId);
    const unknown = await page(`http://x/redeem/${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This link is not valid');
    expect((await reveal(`http://x/redeem/short`)).statusCode).toBe(404);

    const revoked = await call(t, {
      method: 'POST',
      url: `/api/seller/v1/orders/${data.orderReference}/redemption/revoke`,
      headers: seller.auth,
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.data).toMatchObject({ url: null, revokedAt: expect.any(String) });
    for (const answer of [await page(data.redemption.url), await reveal(data.redemption.url)]) {
      expect(answer.statusCode).toBe(410);
      expect(answer.body).toContain('This link was withdrawn');
      expect(answer.body).not.toContain(key);
    }
    expect(await revealEntries(data.orderId)).toEqual([]);

    const later = await keylessOrder(seller);
    t.ctx.testClock!.advance(REDEMPTION_TTL_MS / 1000 + 60);
    const expired = await reveal(later.data.redemption.url);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This link has expired');
    expect(expired.body).not.toContain((await plaintextOf(later.data.orderId))[0]);
    expectApiError(
      await call(t, {
        method: 'POST',
        url: `/api/seller/v1/orders/${later.data.orderReference}/redemption/regenerate`,
        headers: seller.auth,
      }),
      410,
      'REDEMPTION_EXPIRED',
    );
  });

  it('regenerates a link: the old one stops working, the new one reveals, events carry no link', async () => {
    const seller = await keylessSeller();
    const { body, data } = await keylessOrder(seller);
    const [key] = await plaintextOf(data.orderId);
    const regenerate = () =>
      call(t, {
        method: 'POST',
        url: `/api/seller/v1/orders/${data.orderReference}/redemption/regenerate`,
        headers: { ...seller.auth, 'idempotency-key': 'regen-1' },
      });
    const fresh = await regenerate();
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    const url: string = fresh.body.data.url;
    expect(url).not.toBe(data.redemption.url);
    // The same Idempotency-Key answers the same link, not a third one.
    expect((await regenerate()).body.data.url).toBe(url);
    expect((await page(data.redemption.url)).statusCode).toBe(404);
    expect((await reveal(url)).body).toContain(key);
    expect((await post(t, seller, '/orders', body)).body.data.redemption.url).toBe(url);

    const events = await t.ctx.db
      .selectFrom('outbox_events')
      .select(['event_type', 'payload'])
      .where('company_id', '=', seller.company.id)
      .where('event_type', 'in', ['redemption.regenerated', 'redemption.revoked'])
      .execute();
    expect(events.map((e) => e.event_type)).toEqual(['redemption.regenerated']);
    expect(JSON.stringify(events)).not.toContain(url.split('/').pop()!);
  });

  it("refuses link changes on orders that are not keyless, or not the caller's", async () => {
    const seller = await keylessSeller();
    const stranger = await keylessSeller();
    const { data } = await keylessOrder(seller);
    const keyed = await post(t, seller, '/orders', alwaysOrder());
    for (const [who, reference] of [
      [stranger, data.orderReference],
      [seller, keyed.body.data.orderReference],
    ] as const) {
      expectApiError(
        await call(t, {
          method: 'POST',
          url: `/api/seller/v1/orders/${reference}/redemption/revoke`,
          headers: who.auth,
        }),
        404,
        'NOT_FOUND',
      );
    }
  });
});

for (const action of ['revoke', 'regenerate']) {
  describeRouteContract(`POST /orders/{orderReference}/redemption/${action}`, t, {
    method: 'POST',
    url: () => `/api/seller/v1/orders/unchecked/redemption/${action}`,
    scopes: ['seller:orders:manage'],
  });
}
