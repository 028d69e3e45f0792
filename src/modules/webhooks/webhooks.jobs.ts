import type { AppContext } from '../../context.js';
import type { Job, JobRunner } from '../../jobs/runner.js';
import { DEFAULT_LIMITS, DeliveryWorker } from './delivery.service.js';
import { publishDue } from './publisher.service.js';

/**
 * The webhook jobs of one process: `webhooks-publish` orders committed outbox events and fans
 * them out to endpoints; `webhooks-deliver` sends due deliveries. On PostgreSQL both wake on
 * NOTIFY (an outbox insert, a publish elsewhere), so their idle interval only catches retries
 * falling due; SQLite has no notifications and one process, so it looks often and cheaply.
 */
export function registerWebhookJobs(ctx: AppContext, runner: JobRunner): Job[] {
  const idleMs = ctx.engine === 'postgres' ? 1000 : 20;
  const worker = new DeliveryWorker(ctx, DEFAULT_LIMITS, () => runner.wake('webhooks-deliver'));
  const jobs: Job[] = [
    {
      name: 'webhooks-publish',
      idleMs,
      run: async () => {
        const published = await publishDue(ctx);
        if (published > 0) runner.wake('webhooks-deliver');
        return published > 0;
      },
    },
    {
      name: 'webhooks-deliver',
      idleMs,
      run: async () => (await worker.round()) > 0,
      stop: () => worker.drain(),
    },
  ];
  for (const job of jobs) runner.add(job);
  return jobs;
}
