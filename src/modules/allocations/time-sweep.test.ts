import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../test/admin.js';
import { makeSeller } from '../../../test/factories.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { productionScenario } from '../../../test/production.js';
import { createContext } from '../../create-context.js';
import { openDatabase } from '../../db/database.js';
import { startProcessJobs } from '../../jobs/process-jobs.js';
import { ensureSandboxProvisioned, seedSandboxCatalog } from '../sandbox/sandbox.service.js';
import { sweepTimeDrivenSellability } from './time-sweep.service.js';

const t = useTestApp();
const HOUR = 3600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const flips = async (sellerId: string, skuId?: string) =>
  (await eventsFor(t, sellerId, 'sku.sellability_changed'))
    .map((e) => e.data)
    .filter((d) => skuId === undefined || d.skuId === skuId);

/** A sellable production SKU whose only US price is withdrawn an hour from now. */
async function priceWithdrawnInAnHour() {
  const s = await productionScenario(t);
  await sweepTimeDrivenSellability(t.ctx); // the sweep has started before the schedule
  await admin(
    t,
    'PUT',
    `/releases/${s.releaseId}/prices`,
    {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: null,
      effectiveAt: new Date(t.ctx.clock.now() + HOUR * 1000).toISOString(),
    },
    200,
  );
  expect((await flips(s.sellerId, s.skuId)).at(-1)).toMatchObject({ sellable: true });
  return s;
}

describe('time-driven sellability', () => {
  it('announces a scheduled price withdrawal taking effect: one sku.sellability_changed with its reason, once', async () => {
    const s = await priceWithdrawnInAnHour();
    const before = (await flips(s.sellerId, s.skuId)).length;
    expect(await sweepTimeDrivenSellability(t.ctx)).toBe(false); // nothing is due yet
    t.ctx.testClock!.advance(HOUR + 1);
    await sweepTimeDrivenSellability(t.ctx);
    await sweepTimeDrivenSellability(t.ctx);
    const after = await flips(s.sellerId, s.skuId);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toEqual({
      skuId: s.skuId,
      skuCode: s.skuCode,
      productId: s.productId,
      sellable: false,
      reasons: ['NO_TERRITORY_PRICING'],
    });
  });

  it('announces each move of the sandbox churn SKU between live and archived', async () => {
    await seedSandboxCatalog(t.ctx);
    const seller = await makeSeller(t);
    await ensureSandboxProvisioned(t.ctx, seller.company.id);
    await sweepTimeDrivenSellability(t.ctx);
    const churn = await t.ctx.db
      .selectFrom('skus')
      .select('id')
      .where('code', '=', 'SANDBOX-CHURN-001')
      .executeTakeFirstOrThrow();
    const before = await flips(seller.company.id, churn.id);
    t.ctx.testClock!.advance(6 * HOUR);
    await sweepTimeDrivenSellability(t.ctx);
    t.ctx.testClock!.advance(6 * HOUR);
    await sweepTimeDrivenSellability(t.ctx);
    await sweepTimeDrivenSellability(t.ctx);
    const after = await flips(seller.company.id, churn.id);
    expect(after).toHaveLength(before.length + 2);
    const [first, second] = after.slice(-2);
    expect(second!.sellable).toBe(!first!.sellable);
    const archived = first!.sellable ? second! : first!;
    expect(archived.reasons).toEqual(['LIFECYCLE_NOT_LIVE']);
  });

  it('announces a flip once when two processes sweep the same moment (two app processes on PostgreSQL; accounting on SQLite)', async () => {
    const s = await priceWithdrawnInAnHour();
    const before = (await flips(s.sellerId, s.skuId)).length;
    await t.ctx.testClock!.advanceShared(HOUR + 1);
    // A second process: its own pool, caches and clock on the same database (SQLite is one process).
    const handle = ENGINE === 'postgres' ? openDatabase(t.config.database) : null;
    const other = handle ? await createContext(t.config, handle) : t.ctx;
    try {
      await other.testClock!.sync();
      await Promise.all([
        sweepTimeDrivenSellability(t.ctx),
        sweepTimeDrivenSellability(other),
        sweepTimeDrivenSellability(t.ctx),
        sweepTimeDrivenSellability(other),
      ]);
      await Promise.all([sweepTimeDrivenSellability(t.ctx), sweepTimeDrivenSellability(other)]);
    } finally {
      if (handle) {
        await other.close();
        await handle.close();
      }
    }
    const after = await flips(s.sellerId, s.skuId);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ sellable: false, reasons: ['NO_TERRITORY_PRICING'] });
  });

  it('with the background jobs running, a scheduled archive is announced within about a second of its moment', async () => {
    const s = await productionScenario(t);
    const jobs = startProcessJobs(t.ctx, { error: () => {} });
    try {
      await admin(t, 'PATCH', `/products/${s.productId}`, {
        archiveAt: new Date(t.ctx.clock.now() + 120_000).toISOString(),
      });
      await sleep(1_200); // every job has looked once before the moment
      t.ctx.testClock!.advance(121);
      const started = performance.now();
      while ((await eventsFor(t, s.sellerId, 'product.delisted')).length === 0) {
        if (performance.now() - started > 5_000) break;
        await sleep(50);
      }
      expect(performance.now() - started).toBeLessThan(2_500);
      expect((await flips(s.sellerId, s.skuId)).at(-1)).toMatchObject({
        sellable: false,
        reasons: ['LIFECYCLE_NOT_LIVE'],
      });
    } finally {
      await jobs.stop();
    }
  });
});
