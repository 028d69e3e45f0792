import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { isChurnedAway } from './sellability.js';
import { refreshSellability } from './sellability.service.js';
import * as repo from './time-sweep.repo.js';

const SWEEP = 'sellability';
const started = new WeakSet<AppContext>();

/** SKUs whose sellability may have moved because the clock went from `from` to `to`. */
async function skusTouchedByTime(ex: Executor, from: number, to: number): Promise<string[]> {
  const skus = new Set(await repo.skusWithPricesTakingEffect(ex, from, to));
  for (const sku of await repo.churningSkus(ex))
    if (isChurnedAway(sku.churn_period_hours, from) !== isChurnedAway(sku.churn_period_hours, to))
      skus.add(sku.id);
  return [...skus];
}

/**
 * Time-driven sellability (docs/events.md): finds the SKUs whose `sellable` may flip only
 * because time passed (a scheduled price taking effect or withdrawn, the sandbox churn SKU
 * moving between live and archived) since the last sweep, recomputes them for every seller who
 * was told a state, and emits one `sku.sellability_changed` per flip. Scheduled archives flip
 * through the product-archive job, which archives (and refreshes) within a second of the moment.
 *
 * Exactly once across processes: the sweep's mark (`time_sweeps`) is locked for the whole
 * transaction that emits and moves it (SKIP LOCKED on PostgreSQL: a second process skips the
 * round), and the stored state per seller and SKU makes a repeated look a no-op. A round with
 * nothing to do reads only and moves nothing. True when it swept something.
 */
export async function sweepTimeDrivenSellability(ctx: AppContext): Promise<boolean> {
  const now = ctx.clock.now();
  if (!started.has(ctx)) {
    await repo.ensureSweep(ctx.db, SWEEP, now);
    started.add(ctx);
  }
  const from = await repo.sweptUntil(ctx.db, SWEEP);
  if (from === undefined || from >= now || (await skusTouchedByTime(ctx.db, from, now)).length === 0)
    return false;
  return ctx.db.transaction().execute(async (trx) => {
    const claimed = await repo.claimSweep(trx, SWEEP);
    if (claimed === undefined || claimed >= now) return false;
    const skuIds = await skusTouchedByTime(trx, claimed, now);
    const bySeller = new Map<string, { sellerId: string; environment: string; skuIds: string[] }>();
    for (const row of skuIds.length > 0 ? await repo.knownSellersOf(trx, skuIds) : []) {
      const key = `${row.seller_company_id}\t${row.environment}`;
      const entry = bySeller.get(key) ?? {
        sellerId: row.seller_company_id,
        environment: row.environment,
        skuIds: [],
      };
      entry.skuIds.push(row.sku_id);
      bySeller.set(key, entry);
    }
    for (const { sellerId, environment, skuIds: skus } of bySeller.values())
      await refreshSellability(ctx, trx, sellerId, environment, skus);
    await repo.markSwept(trx, SWEEP, now);
    return true;
  });
}
