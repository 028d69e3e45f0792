import type { AppContext } from '../../context.js';
import { jobsWakeOnNotice, WEBHOOK_DELIVERY_JOB } from '../../jobs/notify-job.repo.js';
import type { Job, JobRunner } from '../../jobs/runner.js';
import { onEventsWritten } from '../events/index.js';
import { DEFAULT_LIMITS, DeliveryWorker } from './delivery.service.js';
import { PUBLISH_BATCH, publishDue } from './publisher.service.js';

/** While this process writes events, the publisher looks this often (docs/events.md, "Waking the publisher"). */
const PROMPT_POLL_MS = 10;
/** How long after the last event written here it keeps looking that often (most writes commit within it). */
const PROMPT_WINDOW_MS = 250;
/** Then it looks this often until this long after it: a commit slowed by load still publishes soon. */
const TAIL_POLL_MS = 50;
const TAIL_WINDOW_MS = 2000;

/** How long the publisher waits before it looks again, `sinceWritten` ms after the last event written here; null: idle. */
function nextLookAfter(sinceWritten: number): number | null {
  if (sinceWritten < PROMPT_WINDOW_MS) return PROMPT_POLL_MS;
  if (sinceWritten < TAIL_WINDOW_MS) return TAIL_POLL_MS;
  return null;
}

/**
 * The webhook jobs of one process: `webhooks-publish` orders committed outbox events and fans
 * them out to endpoints; `webhooks-deliver` sends due deliveries. The process that writes
 * events wakes its own publisher (`onEventsWritten`), which then looks every 10 ms until 250 ms
 * pass without one, and every 50 ms until 2 s have: the rows are announced before they commit,
 * so one look could come too soon, and on a loaded machine the commit can come late.
 * A publish notifies the delivery jobs of every process (NOTIFY on PostgreSQL). The idle
 * interval catches the rest: retries and delayed events falling due, events written by another
 * process (the CLI); SQLite has one process and looks every 20 ms, PostgreSQL every second.
 */
export function registerWebhookJobs(ctx: AppContext, runner: JobRunner): Job[] {
  const idleMs = jobsWakeOnNotice(ctx.db) ? 1000 : 20;
  const worker = new DeliveryWorker(ctx, DEFAULT_LIMITS, () => runner.wake(WEBHOOK_DELIVERY_JOB));
  let lastWrittenAt = Number.NEGATIVE_INFINITY;
  let publisherIdle = false;
  const stopListening = onEventsWritten(ctx, () => {
    lastWrittenAt = performance.now();
    if (!publisherIdle) return;
    publisherIdle = false;
    runner.wake('webhooks-publish');
  });
  const jobs: Job[] = [
    {
      name: 'webhooks-publish',
      idleMs,
      run: async () => {
        publisherIdle = false;
        const published = await publishDue(ctx);
        if (published > 0) runner.wake(WEBHOOK_DELIVERY_JOB);
        if (published === PUBLISH_BATCH) return true;
        const lookAgainIn = nextLookAfter(performance.now() - lastWrittenAt);
        if (lookAgainIn !== null) {
          await new Promise((resolve) => setTimeout(resolve, lookAgainIn));
          return true;
        }
        publisherIdle = true;
        return false;
      },
      stop: async () => stopListening(),
    },
    {
      name: WEBHOOK_DELIVERY_JOB,
      idleMs,
      run: async () => (await worker.round()) > 0,
      stop: () => worker.drain(),
    },
  ];
  for (const job of jobs) runner.add(job);
  return jobs;
}
