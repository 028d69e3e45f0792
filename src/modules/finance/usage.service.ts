import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { SANDBOX_LIMITS_PER_MINUTE } from '../../http/rate-limit.js';
import { keysPerDay } from './kept-totals.repo.js';
import type { SellerRows } from './sales-read.repo.js';
import { usageCalls } from './usage.repo.js';

const DAY_MS = 86_400_000;
export const MAX_USAGE_DAYS = 31;
export const ROUTE_CLASSES = ['catalog', 'orders', 'finance', 'webhooks', 'general'] as const;

const dayIndexOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (dayIndex: number) => new Date(dayIndex * DAY_MS).toISOString().slice(0, 10);

/**
 * GET /usage: per UTC day in [from, to] (default the last 7 days, at most 31), the API calls of
 * the company in this environment per route class, and the keys it took (sales and pulls). The
 * meta says whether this key is rate limited and the sandbox limits per route class.
 */
export async function usage(ctx: AppContext, scope: SellerRows, q: { from?: string; to?: string }) {
  const today = Math.floor(ctx.clock.now() / DAY_MS);
  const to = q.to ? dayIndexOf(q.to) : today;
  const from = q.from ? dayIndexOf(q.from) : to - 6;
  if (to < from || to - from + 1 > MAX_USAGE_DAYS) {
    throw fail(
      'VALIDATION_FAILED',
      `from must not be after to, and the span at most ${MAX_USAGE_DAYS} days.`,
      {
        issues: [{ field: 'from', in: 'query', message: 'span of 1 to 31 days', keyword: 'range' }],
      },
    );
  }
  const [calls, keys] = await Promise.all([
    usageCalls(ctx.db, scope, dateOf(from), dateOf(to)),
    keysPerDay(ctx.db, scope, from, to),
  ]);
  const data = [];
  for (let day = from; day <= to; day++) {
    const date = dateOf(day);
    const apiCalls: Record<string, number> = Object.fromEntries(ROUTE_CLASSES.map((c) => [c, 0]));
    for (const row of calls) if (row.day === date) apiCalls[row.route_class] = Number(row.calls);
    const total = Object.values(apiCalls).reduce((a, b) => a + b, 0);
    data.push({ date, apiCalls: { ...apiCalls, total }, keysPulled: keys.get(day) ?? 0 });
  }
  const sandbox = scope.environment === 'sandbox';
  return {
    data,
    meta: {
      from: dateOf(from),
      to: dateOf(to),
      rateLimits: {
        rateLimited: sandbox,
        perMinutePerRouteClass: sandbox ? { ...SANDBOX_LIMITS_PER_MINUTE } : null,
        routeClasses: [...ROUTE_CLASSES],
        headroom:
          'Each response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset for its route class and bucket.',
      },
    },
  };
}
