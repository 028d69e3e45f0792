import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitStore } from '../lib/rate-limit/store.js';
import { fail } from './errors.js';

export type RateClass = 'catalog' | 'orders' | 'finance' | 'webhooks' | 'general';
export type RateBucket = 'read' | 'read-cached' | 'write';

/** Rate limits: per company, per route class, sliding one-minute windows; sandbox keys only. */
export const SANDBOX_LIMITS_PER_MINUTE: Record<RateBucket, number> = {
  write: 600,
  read: 1200,
  'read-cached': 12000,
};

const WINDOW_MS = 60_000;

export function bucketOf(request: FastifyRequest): RateBucket {
  if (request.cachedPage) return 'read-cached';
  const declared = request.routeOptions.config.rateBucket;
  if (declared) return declared;
  return request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
}

/** Debits the sandbox window for this request and sets the X-RateLimit-* headers. */
export async function applySandboxRateLimit(
  store: RateLimitStore,
  request: FastifyRequest,
  reply: FastifyReply,
  nowMs: number,
): Promise<void> {
  const principal = request.principal;
  if (principal?.environment !== 'sandbox') return;
  const rateClass = request.routeOptions.config.rateClass ?? 'general';
  const bucket = bucketOf(request);
  const limit = SANDBOX_LIMITS_PER_MINUTE[bucket];
  const decision = await store.hit(`${principal.companyId}:${rateClass}:${bucket}`, limit, WINDOW_MS, nowMs);
  reply.header('x-ratelimit-limit', String(decision.limit));
  reply.header('x-ratelimit-remaining', String(decision.remaining));
  reply.header('x-ratelimit-reset', String(decision.resetAtSec));
  if (!decision.allowed) {
    throw fail(
      'RATE_LIMIT_EXCEEDED',
      `Sandbox ${bucket} limit of ${limit} requests per minute for ${rateClass} routes reached.`,
      { bucket, rateClass, limit, retryAfterSeconds: decision.retryAfterSec },
      { 'Retry-After': String(decision.retryAfterSec) },
    );
  }
}
