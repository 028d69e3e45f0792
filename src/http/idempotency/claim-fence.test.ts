import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { type ProductionScenario, productionOrder, productionScenario } from '../../../test/production.js';
import { commitLine, prepareOrder } from '../../modules/checkout/orders/orders.service.js';
import { fenceClaim } from './claim-fence.js';
import * as repo from './idempotency.repo.js';
import type { Claim } from './record-key.js';

const t = useTestApp();

const actorOf = (s: ProductionScenario) => ({
  sellerId: s.sellerId,
  environment: 'production',
  apiKeyId: s.seller.keyId,
});

let n = 0;
/** A claim of a new key by `owner`, stored as the claim step stores it. */
async function claimed(s: ProductionScenario, owner: string): Promise<Claim> {
  const now = Date.now();
  const claim = {
    companyId: s.sellerId,
    environment: 'production',
    key: `fence-${++n}`,
    owner,
    lockedUntil: now + 60_000,
  };
  expect(await repo.claim(t.ctx.db, claim, 'hash', now)).toBe(true);
  return claim;
}

async function order(s: ProductionScenario, claim: Claim) {
  const body = productionOrder(s, { orderReference: `fence-order-${++n}` });
  const facts = { contractDate: '2026-09-01', simulate: null, claim };
  const prepared = await prepareOrder(t.ctx, actorOf(s), body as never, facts);
  return { reference: body.orderReference as string, run: () => commitLine(t.ctx, prepared) };
}

const ordersUnder = (reference: string) =>
  t.ctx.db.selectFrom('orders').select('id').where('order_reference', '=', reference).execute();

describe('the claim fence of an order', () => {
  it('an order whose claim is still its own commits', async () => {
    const s = await productionScenario(t);
    const claim = await claimed(s, 'process-a');
    const { reference, run } = await order(s, claim);
    const { view } = await run();
    expect(view.keys).toHaveLength(1);
    expect(await ordersUnder(reference)).toHaveLength(1);
  });

  it('an order whose claim another process took over writes nothing and answers in progress', async () => {
    const s = await productionScenario(t);
    const claim = await claimed(s, 'process-a');
    const { reference, run } = await order(s, claim);
    const taken = { ...claim, owner: 'process-b', lockedUntil: claim.lockedUntil + 1 };
    expect(await repo.retake(t.ctx.db, taken, { locked_until: claim.lockedUntil, owner: claim.owner })).toBe(
      true,
    );

    const err = await run().catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      details: { reason: 'claim_taken_over' },
    });
    expect(await ordersUnder(reference)).toEqual([]);
    const sold = await t.ctx.db
      .selectFrom('game_keys')
      .select('id')
      .where('pool_id', '=', s.poolId)
      .where('state', '=', 'sold')
      .execute();
    expect(sold).toEqual([]);
  });

  it('an order whose claim got its reply stored meanwhile writes nothing', async () => {
    const s = await productionScenario(t);
    const claim = await claimed(s, 'process-a');
    const { reference, run } = await order(s, claim);
    await repo.complete(t.ctx.db, claim, 200, 'sealed', 'application/json');
    await expect(run()).rejects.toMatchObject({ details: { reason: 'claim_taken_over' } });
    expect(await ordersUnder(reference)).toEqual([]);
  });

  it.skipIf(ENGINE !== 'postgres')(
    'PostgreSQL: no retake changes the claim while its fenced transaction runs',
    async () => {
      const s = await productionScenario(t);
      const claim = await claimed(s, 'process-a');
      const taken = { ...claim, owner: 'process-b', lockedUntil: claim.lockedUntil + 1 };
      await t.ctx.db.transaction().execute(async (trx) => {
        await fenceClaim(trx, claim);
        // A retake on another connection cannot change the row while the fence holds it.
        const refused = await t.ctx.db
          .transaction()
          .execute(async (other) => {
            await sql`set local lock_timeout = '200ms'`.execute(other);
            return repo.retake(other, taken, { locked_until: claim.lockedUntil, owner: claim.owner });
          })
          .catch((e: unknown) => e);
        expect(refused).toMatchObject({ code: '55P03' });
      });
      // Once the fenced transaction ended, the retake applies as before.
      expect(
        await repo.retake(t.ctx.db, taken, { locked_until: claim.lockedUntil, owner: claim.owner }),
      ).toBe(true);
    },
  );
});
