import type { AppContext } from '../context.js';
import { type DayRetention, keepDayPartitions } from '../db/day-partitions.js';
import { REPLAY_WINDOW_MS } from '../http/idempotency/idempotency.js';
import { REQUEST_LOG_RETENTION_MS } from '../modules/request-log/index.js';
import { EVENT_RETENTION_MS, eventDayMayGo } from '../modules/webhooks/index.js';
import type { Job } from './runner.js';

/** The tables kept in day partitions on PostgreSQL, each with how long its rows are kept. */
export const DAY_PARTITIONED: readonly DayRetention[] = [
  { table: 'request_log', keptMs: REQUEST_LOG_RETENTION_MS },
  // A record past its replay window is only ever released; its day can go whole.
  { table: 'idempotency_records', keptMs: REPLAY_WINDOW_MS },
  // Events with their deliveries and attempts: a day goes once none of it is young or waiting.
  { table: 'outbox_events', keptMs: EVENT_RETENTION_MS, mayDrop: eventDayMayGo },
];

/** Days are made a week ahead: hourly rounds leave a stopped process days to come back. */
const ROUND_MS = 60 * 60_000;

/**
 * `partition-upkeep` (PostgreSQL only): makes the coming days' partitions and drops the days past
 * retention (db/day-partitions.ts). Safe in every process: one keeps the partitions at a time.
 */
export function partitionUpkeepJob(ctx: AppContext): Job {
  return {
    name: 'partition-upkeep',
    idleMs: ROUND_MS,
    run: async () => {
      await keepDayPartitions(ctx.db, ctx.clock.now(), DAY_PARTITIONED);
      return false;
    },
  };
}
