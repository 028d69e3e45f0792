import type { AppContext } from '../../context.js';
import { SANDBOX_LIMITS_PER_MINUTE } from '../../http/rate-limit.js';
import { isoOf } from '../../lib/clock.js';
import type { Environment } from '../../lib/environment.js';
import { busiestKeysOf, callsPerMinute, REQUEST_LOG_RETENTION_MS } from '../request-log/index.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const BUSIEST_KEYS = 10;

export interface UsageSpan {
  companyId: string;
  environment: Environment;
  /** UTC days, inclusive, as GET /usage answered them. */
  from: string;
  to: string;
}

/** The span in epoch ms, cut to what the request log keeps (14 days). */
function windowOf(ctx: AppContext, span: UsageSpan): [number, number] {
  const start = Math.max(Date.parse(`${span.from}T00:00:00Z`), ctx.clock.now() - REQUEST_LOG_RETENTION_MS);
  return [start, Date.parse(`${span.to}T00:00:00Z`) + DAY_MS];
}

/**
 * How close the company came to the sandbox limits: per route class and bucket, the busiest
 * one-minute window (UTC minute) of the span in the request log, beside the limit, and the
 * requests refused with RATE_LIMIT_EXCEEDED.
 */
export async function rateLimitPeaks(ctx: AppContext, span: UsageSpan) {
  const [start, end] = windowOf(ctx, span);
  const rows = await callsPerMinute(ctx.db, { ...span, start, end }, MINUTE_MS);
  const peaks = new Map<
    string,
    { rateClass: string; bucket: string; peak: number; at: number; refused: number }
  >();
  for (const row of rows) {
    const key = `${row.rate_class}:${row.bucket}`;
    const entry = peaks.get(key) ?? {
      rateClass: row.rate_class,
      bucket: row.bucket,
      peak: 0,
      at: 0,
      refused: 0,
    };
    entry.refused += Number(row.refused ?? 0);
    const calls = Number(row.calls);
    if (calls > entry.peak) {
      entry.peak = calls;
      entry.at = Number(row.minute) * MINUTE_MS;
    }
    peaks.set(key, entry);
  }
  const limited = span.environment === 'sandbox';
  return [...peaks.values()]
    .sort((a, b) => a.rateClass.localeCompare(b.rateClass) || a.bucket.localeCompare(b.bucket))
    .map((entry) => {
      const limit = limited
        ? SANDBOX_LIMITS_PER_MINUTE[entry.bucket as keyof typeof SANDBOX_LIMITS_PER_MINUTE]
        : null;
      return {
        rateClass: entry.rateClass,
        bucket: entry.bucket,
        peakPerMinute: entry.peak,
        peakMinute: isoOf(entry.at),
        limitPerMinute: limit ?? null,
        peakPercentOfLimit: limit ? Math.round((entry.peak / limit) * 1000) / 10 : null,
        refused: entry.refused,
      };
    });
}

/** The keys (and console users) that made the most requests in the span, busiest first. */
export async function busiestKeys(ctx: AppContext, span: UsageSpan) {
  const [start, end] = windowOf(ctx, span);
  const rows = await busiestKeysOf(ctx.db, { ...span, start, end }, BUSIEST_KEYS);
  return rows.map((row) => ({
    keyId: row.key_id,
    keyName: row.key_name,
    calls: Number(row.calls),
    failed: Number(row.failed ?? 0),
    lastAt: isoOf(Number(row.last_at)),
  }));
}
