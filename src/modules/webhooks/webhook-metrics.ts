import { sql } from 'kysely';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../context.js';
import type { DeliveryStatus } from './webhooks.table.js';

const QUEUE_DEPTH = 'sdapi_webhook_queue_depth';
// Written into the SQL, not bound: PostgreSQL plans this app's statements generically (blind to
// bound values), and only a literal status lets it use the partial indexes webhook_deliveries_due
// and webhook_deliveries_held rather than read every delivery ever made at each scrape.
const PENDING = sql.lit<DeliveryStatus>('pending');
const HELD = sql.lit<DeliveryStatus>('held');
const OUTBOX_LAG = 'sdapi_outbox_lag_seconds';

/** Deliveries waiting, by state: due now (or in flight), scheduled for a later retry, held. */
async function queueDepth(ctx: AppContext, now: number) {
  const pending = await ctx.db
    .selectFrom('webhook_deliveries')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.sum<number>(eb.case().when('next_attempt_at', '<=', now).then(1).else(0).end()).as('due'),
    ])
    .where('status', '=', PENDING)
    .executeTakeFirstOrThrow();
  const held = await ctx.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', HELD)
    .executeTakeFirstOrThrow();
  const due = Number(pending.due ?? 0);
  return { due, scheduled: Number(pending.all) - due, held: Number(held.n) };
}

/**
 * Seconds the oldest due work has waited: `publish`, since the oldest committed, unpublished
 * event became due (its commit, or its delay's end); `deliver`, since the oldest pending
 * delivery fell due (first attempt or retry; held ones excluded). 0 when nothing waits.
 */
async function outboxLag(ctx: AppContext, now: number) {
  const unpublished = await ctx.db
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.min<number>('deliver_after').as('since'))
    .where('published_seq', 'is', null)
    .where('deliver_after', '<=', now)
    .executeTakeFirst();
  const undelivered = await ctx.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min<number>('next_attempt_at').as('since'))
    .where('status', '=', PENDING)
    .executeTakeFirst();
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
