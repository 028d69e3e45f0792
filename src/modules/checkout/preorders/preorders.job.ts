import type { AppContext } from '../../../context.js';
import { jobsWakeOnNotice, PREORDER_CONVERSION_JOB } from '../../../jobs/notify-job.repo.js';
import type { JobRunner } from '../../../jobs/runner.js';
import { convertReleasedPreorders } from './conversion.service.js';
import { failUnconvertiblePreorders } from './failure.service.js';

/**
 * Pre-order conversion and failure in every process. On PostgreSQL a release coming out, a product moving
 * to `released` and a key import wake it by NOTIFY at their commit, so its idle interval only
 * catches what no notice announces (a grant resumed or raised); SQLite has no notifications
 * and one process, so it looks every second (one indexed query when nothing waits).
 */
export function registerPreorderJob(ctx: AppContext, runner: JobRunner): void {
  runner.add({
    name: PREORDER_CONVERSION_JOB,
    idleMs: jobsWakeOnNotice(ctx.db) ? 60_000 : 1000,
    run: async () => {
      await convertReleasedPreorders(ctx);
      return false;
    },
  });
  // A pre-order whose grant is revoked or whose product is delisted fails within a second
  // (`order.failed`); one indexed look when none does.
  runner.add({
    name: 'preorder-failures',
    idleMs: 1000,
    run: async () => {
      await failUnconvertiblePreorders(ctx);
      return false;
    },
  });
}
