import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { addUsage } from './usage.repo.js';

const DAY_MS = 86_400_000;
/** How often counted calls are written; a reader of GET /usage in this process flushes first. */
export const USAGE_FLUSH_MS = 10_000;

const dayOf = (dayIndex: number) => new Date(dayIndex * DAY_MS).toISOString().slice(0, 10);

/**
 * API calls per company, environment, UTC day and route class. The request path only bumps an
 * in-memory counter; `flush` writes the counts in one batched upsert (adding to what other
 * processes wrote), on a timer and at shutdown. A crash loses at most one interval of counts.
 */
export class UsageCounter {
  private counts = new Map<string, number>();

  record(companyId: string, environment: string, routeClass: string, nowMs: number): void {
    const key = `${companyId}\t${environment}\t${Math.floor(nowMs / DAY_MS)}\t${routeClass}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  async flush(db: Db): Promise<void> {
    if (this.counts.size === 0) return;
    const taken = this.counts;
    this.counts = new Map();
    const rows = [...taken].map(([key, calls]) => {
      const [company_id, environment, day, route_class] = key.split('\t') as [string, string, string, string];
      return { company_id, environment, day: dayOf(Number(day)), route_class, calls };
    });
    try {
      await addUsage(db, rows);
    } catch (err) {
      for (const [key, calls] of taken) this.counts.set(key, (this.counts.get(key) ?? 0) + calls);
      throw err;
    }
  }
}

/**
 * Counts every authenticated seller request by its route class once the reply is sent (off the
 * request path), flushing every USAGE_FLUSH_MS and when the app closes.
 */
export function installUsageCounting(app: FastifyInstance, ctx: AppContext): UsageCounter {
  const counter = new UsageCounter();
  app.addHook('onResponse', (request, _reply, done) => {
    const principal = request.principal;
    if (principal) {
      const routeClass = request.routeOptions.config.rateClass ?? 'general';
      counter.record(principal.companyId, principal.environment, routeClass, ctx.clock.now());
    }
    done();
  });
  const flush = () => counter.flush(ctx.db).catch(() => undefined);
  const timer = setInterval(flush, USAGE_FLUSH_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await flush();
  });
  return counter;
}
