import { Gauge } from 'prom-client';
import type { AppContext } from '../../context.js';
import * as metrics from './queue-metrics.repo.js';

const QUEUE_DEPTH = 'sdapi_webhook_queue_depth';
const OUTBOX_LAG = 'sdapi_outbox_lag_seconds';

/** Deliveries waiting, by state: due now (or in flight), scheduled for a later retry, held. */
async function queueDepth(ctx: AppContext, now: number) {
  const pending = await metrics.pendingCounts(ctx.db, now);
  const held = await metrics.heldCount(ctx.db);
  const due = Number(pending.due ?? 0);
  return { due, scheduled: Number(pending.all) - due, held: Number(held.n) };
}

/**
 * Seconds the oldest due work has waited: `publish`, since the oldest committed, unpublished
 * event became due (its commit, or its delay's end); `deliver`, since the oldest pending
 * delivery fell due (first attempt or retry; held ones excluded). 0 when nothing waits.
 */
async function outboxLag(ctx: AppContext, now: number) {
  const unpublished = await metrics.oldestDuePublication(ctx.db, now);
  const undelivered = await metrics.oldestPendingDelivery(ctx.db);
  const age = (since: number | null | undefined) =>
    since === null || since === undefined ? 0 : Math.max(0, (now - Number(since)) / 1000);
  return { publish: age(unpublished?.since), deliver: age(undelivered?.since) };
}

/**
 * The webhook series read at scrape time (docs/operations.md): queue depth and outbox lag. Once
 * per context (the operator listener and `sdapi admin` may both build an operator app); the
 * delivery outcomes are the counter `sdapi_webhook_deliveries_total` the recorder moves.
 */
export function registerWebhookMetrics(ctx: AppContext): void {
  const registry = ctx.metrics.registry;
  if (registry.getSingleMetric(QUEUE_DEPTH)) return;
  new Gauge({
    name: QUEUE_DEPTH,
    help: 'Webhook deliveries waiting, by state: due (due now or in flight), scheduled (a later retry), held (endpoint disabled).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const depth = await queueDepth(ctx, ctx.clock.now());
      for (const [state, n] of Object.entries(depth)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: OUTBOX_LAG,
    help: 'Seconds the oldest due outbox work has waited, by stage: publish (committed, unpublished event), deliver (pending delivery).',
    labelNames: ['stage'] as const,
    registers: [registry],
    async collect() {
      const lag = await outboxLag(ctx, ctx.clock.now());
      for (const [stage, seconds] of Object.entries(lag)) this.set({ stage }, seconds);
    },
  });
}
