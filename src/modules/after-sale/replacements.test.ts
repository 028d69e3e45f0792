import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import { activityOf, allocationRow, keyStates, order, saleLinesOf } from '../../../test/after-sale.js';
import { alwaysOrder, post } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { SCOPES } from '../../http/auth/scopes.js';

const t = useTestApp();

const manager = () => makeSeller(t, { scopes: [...SCOPES] });
const replace = (seller: TestSeller, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post(t, seller, '/keys/replace', body, headers);

const replacementEvents = (sellerId: string) =>
  t.ctx.db
    .selectFrom('outbox_events')
    .select('payload')
    .where('company_id', '=', sellerId)
    .where('event_type', '=', 'key.replaced')
    .execute();

describe(`key replacement (${ENGINE})`, () => {
  it('quarantines the reported key and delivers one new key of the grant, with no charge and no pull', async () => {
    const seller = await manager();
    const placed = await order(t, seller, { quantity: 2 });
    const [reported, kept] = placed.keyIds as [string, string];
    const pulledBefore = (await allocationRow(t, placed.allocationId)).quantity_pulled;

    const swapped = await replace(seller, { keyId: reported, reason: 'buyer says already used' });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    const data = swapped.body.data;
    expect(data).toMatchObject({
      orderReference: placed.orderReference,
      replacedKeyId: reported,
      replacementsUsed: 1,
      replacementPolicy: { maxPerOrder: 1, windowDays: 30 },
      reason: 'buyer says already used',
    });
    expect(data.keyId).not.toBe(reported);
    expect(placed.keys).not.toContain(data.key);
    const fresh = await t.ctx.db
      .selectFrom('game_keys')
      .selectAll()
      .where('id', '=', data.keyId)
      .executeTakeFirstOrThrow();
    expect(fresh).toMatchObject({ state: 'sold', order_id: placed.orderId });
    expect(t.ctx.secrets!.open(fresh.ciphertext)).toBe(data.key);
    expect(await keyStates(t, [reported, kept])).toEqual({ [reported]: 'quarantined', [kept]: 'sold' });

    expect((await allocationRow(t, placed.allocationId)).quantity_pulled).toBe(pulledBefore);
    expect(await saleLinesOf(t, placed.orderId)).toHaveLength(1);
    const entries = await activityOf(t, placed.orderId);
    expect(entries.map((e) => [e.kind, e.sign, e.quantity])).toEqual([
      ['sale', 1, 2],
      ['replacement', 0, 1],
    ]);
    const events = await replacementEvents(seller.company.id);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).toContain(data.keyId);
    expect(JSON.stringify(events)).not.toContain(data.key);

    // The order's replay shows the live keys: the new one, never the reported one.
    const replay = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ orderReference: placed.orderReference, quantity: 2 }),
    );
    expect(replay.body.data.keyIds.sort()).toEqual([kept, data.keyId].sort());
    expect(replay.body.data.keys).toContain(data.key);
    expect(replay.body.data.keys).not.toContain(placed.keys[0]);
  });

  it("enforces the grant's policy: one per order by default, the operator's limit and window", async () => {
    const seller = await manager();
    const placed = await order(t, seller, { quantity: 3 });
    const [a, b, c] = placed.keyIds as [string, string, string];
    expect((await replace(seller, { keyId: a })).status).toBe(200);
    const refused = await replace(seller, { keyId: b });
    expectApiError(refused, 422, 'REPLACEMENT_NOT_ALLOWED');
    expect(refused.body.details).toMatchObject({ reason: 'limit_reached', replacementsUsed: 1 });
    expect(await keyStates(t, [b])).toEqual({ [b]: 'sold' });

    await admin(t, 'PATCH', `/allocations/${placed.allocationId}`, {
      replacementPolicy: { maxPerOrder: 3, windowDays: 1 },
    });
    expect((await replace(seller, { keyId: b })).status).toBe(200);
    t.ctx.testClock!.advance(2 * 86_400);
    expect((await replace(seller, { keyId: c })).body.details).toMatchObject({ reason: 'window_elapsed' });
    await admin(t, 'PATCH', `/allocations/${placed.allocationId}`, {
      replacementPolicy: { maxPerOrder: 0, windowDays: 30 },
    });
    expect((await replace(seller, { keyId: c })).body.details).toMatchObject({
      reason: 'replacements_disabled',
    });
    const typo = await t.adminApp.inject({
      method: 'PATCH',
      url: `/admin/v1/allocations/${placed.allocationId}`,
      headers: { authorization: `Bearer ${t.config.adminToken}` },
      payload: { replacementPolicy: { maxPerOrder: 1, windowDays: 30, forever: true } },
    });
    expect(typo.statusCode).toBe(422);
  });

  it('refuses keys that are not replaceable, naming keyId, and changes nothing', async () => {
    const seller = await manager();
    const stranger = await manager();
    const placed = await order(t, seller);
    const [key] = placed.keyIds as string[];
    const refusedFor = async (who: TestSeller, keyId: string, message: RegExp) => {
      const result = await replace(who, { keyId });
      expectApiError(result, 422, 'VALIDATION_FAILED');
      expect(result.body.details.issues).toEqual([
        expect.objectContaining({ field: 'keyId', message: expect.stringMatching(message) }),
      ]);
    };
    await refusedFor(stranger, key!, /not a key delivered to you/);
    await refusedFor(seller, 'no-such-key', /not a key delivered to you/);
    const swapped = await replace(seller, { keyId: key });
    expect(swapped.status).toBe(200);
    await refusedFor(seller, key!, /already replaced/);

    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { keylessEnabled: true });
    const keyless = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-KEYLESS-001' }));
    await refusedFor(seller, keyless.body.data.keyIds[0], /keyless/);
    expect(await replacementEvents(seller.company.id)).toHaveLength(1);
  });

  it('answers a retry with the same Idempotency-Key with the same new key, swapping once', async () => {
    const seller = await manager();
    const placed = await order(t, seller);
    const headers = { 'idempotency-key': `replace-${placed.orderReference}` };
    const first = await replace(seller, { keyId: placed.keyIds[0] }, headers);
    const second = await replace(seller, { keyId: placed.keyIds[0] }, headers);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const rows = await t.ctx.db
      .selectFrom('key_replacements')
      .select('id')
      .where('order_id', '=', placed.orderId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describeRouteContract('POST /keys/replace', t, {
  method: 'POST',
  url: () => '/api/seller/v1/keys/replace',
  body: { keyId: 'unchecked' },
  scopes: ['seller:orders:manage'],
  badInput: { body: { keyId: 'x', extra: true } },
});
