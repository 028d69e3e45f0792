import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { useTestApp } from '../../../../test/harness.js';
import { preorderBody, preorderScenario } from '../../../../test/preorders.js';
import { call, expectApiError } from '../../../../test/route-contract.js';

const t = useTestApp();

describe('a pre-order product without a published window', () => {
  it('is refused as not open yet (422 PRODUCT_NOT_SELLABLE PREORDER_NOT_OPEN), never 503 PREORDER_STATE_UNAVAILABLE, and reserves nothing', async () => {
    const s = await preorderScenario(t);
    await admin(t, 'PATCH', `/products/${s.productId}`, { preorderStart: null });
    const placed = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders',
      headers: { ...s.seller.auth, 'idempotency-key': randomUUID() },
      payload: preorderBody(s),
    });
    expectApiError(placed, 422, 'PRODUCT_NOT_SELLABLE');
    expect(placed.headers['retry-after']).toBeUndefined();
    expect(placed.body.details).toMatchObject({
      reason: 'PREORDER_NOT_OPEN',
      recommendedAction: 'wait_for_preorder_window',
      preorderStart: null,
      launchPhase: 'pre_order',
    });
    const orders = await t.ctx.db.selectFrom('orders').select('id').where('sku_id', '=', s.skuId).execute();
    expect(orders).toEqual([]);
  });
});
