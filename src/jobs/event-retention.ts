import type { AppContext } from '../context.js';
import { purgeExpiredEvents } from '../modules/webhooks/index.js';
import type { Job } from './runner.js';

/** How often the purge looks for expired events once it has caught up. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * `event-retention`: deletes events older than the retention (docs/events.md), in batches of
 * one transaction each, continuing in publication order until the expired ones are done, then
 * sleeping until the next sweep. Safe in every process (one purges at a time on PostgreSQL).
 */
export function eventRetentionJob(ctx: AppContext, batchSize = 500): Job {
  let after = 0;
  return {
    name: 'event-retention',
    idleMs: SWEEP_INTERVAL_MS,
    run: async () => {
      const batch = await purgeExpiredEvents(ctx, after, batchSize);
      after = batch.next ?? 0;
      return batch.next !== null;
    },
  };
}
