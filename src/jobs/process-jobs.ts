import type { AppContext } from '../context.js';
import { sweepTimeDrivenSellability } from '../modules/allocations/index.js';
import { archiveDueProducts } from '../modules/catalog/index.js';
import { registerPreorderJob, sweepRedemptions, sweepReservations } from '../modules/checkout/index.js';
import { clearCapturedAddresses } from '../modules/geo-attest/index.js';
import { collectNotices } from '../modules/notices/index.js';
import { purgeOldRequests } from '../modules/request-log/index.js';
import { registerWebhookJobs, trimAttemptBodies } from '../modules/webhooks/index.js';
import { eventRetentionJob } from './event-retention.js';
import { partitionUpkeepJob } from './partition-upkeep.js';
import { listenForWakeups } from './pg-wakeups.js';
import { JobRunner } from './runner.js';

const SWEEP_INTERVAL_MS = 60_000;
/** Scheduled archives and time-driven sellability flips are announced within a second of their moment. */
const MOMENT_SWEEP_MS = 1_000;
/** Hot-drop reservations live about 60 s: their slots come back within a second of expiring. */
const RESERVATION_SWEEP_MS = 1_000;
/** Published events become console notices within a few seconds. */
const NOTICE_POLL_MS = 2_000;

/**
 * The background work of one server process: webhook publishing and delivery, pre-order
 * conversion, hot-drop reservation expiry, the purge of expired events, the day partitions
 * (PostgreSQL), keyless redemption notices, scheduled product archives and time-driven
 * sellability flips. Every job claims its rows in the database, so any
 * number of processes may run them (docs/events.md, docs/checkout.md, docs/hot-drops.md).
 */
export function startProcessJobs(ctx: AppContext, log: { error(obj: object, msg: string): void }) {
  const runner = new JobRunner((job, err) => log.error({ err, job }, 'background job failed'));
  registerWebhookJobs(ctx, runner);
  registerPreorderJob(ctx, runner);
  runner.add(eventRetentionJob(ctx));
  runner.add({
    name: 'redemption-notices',
    idleMs: SWEEP_INTERVAL_MS,
    run: async () => {
      await sweepRedemptions(ctx);
      return false;
    },
  });
  runner.add({
    name: 'geo-address-clearing',
    idleMs: SWEEP_INTERVAL_MS,
    run: async () => {
      await clearCapturedAddresses(ctx);
      return false;
    },
  });
  runner.add({
    name: 'reservation-expiry',
    idleMs: RESERVATION_SWEEP_MS,
    run: () => sweepReservations(ctx),
  });
  runner.add({
    name: 'sellability-time',
    idleMs: MOMENT_SWEEP_MS,
    run: async () => {
      await sweepTimeDrivenSellability(ctx);
      return false;
    },
  });
  runner.add({
    name: 'product-archive',
    idleMs: MOMENT_SWEEP_MS,
    run: async () => {
      await archiveDueProducts(ctx);
      return false;
    },
  });
  runner.add({ name: 'console-notices', idleMs: NOTICE_POLL_MS, run: () => collectNotices(ctx) });
  // PostgreSQL drops the request log's and idempotency records' expired days whole.
  if (ctx.engine === 'postgres') runner.add(partitionUpkeepJob(ctx));
  runner.add({
    name: 'request-log-retention',
    idleMs: 10 * SWEEP_INTERVAL_MS,
    // Webhook attempts keep the receiver's answer for the same 14 days.
    run: async () => (await purgeOldRequests(ctx)) || (await trimAttemptBodies(ctx)),
  });
  const wakeups = listenForWakeups(ctx.config.database, runner);
  runner.start();
  return {
    runner,
    async stop() {
      await wakeups.close();
      await runner.stop();
    },
  };
}
