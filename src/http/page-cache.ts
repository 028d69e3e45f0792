import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { TtlCache } from '../lib/ttl-cache.js';

const caches = new WeakMap<AppContext, TtlCache<string>>();

/**
 * The page cached under `key`, if any: the request hook looks before it debits the sandbox
 * rate limit (a hit counts as `read-cached`, not `read`) and hands it to the handler, so the page
 * debited as a hit is the page served.
 */
export function peekCachedPage(ctx: AppContext, key: string, now: number): string | undefined {
  return caches.get(ctx)?.get(key, now);
}

/**
 * A short-lived cache of serialized list pages, per process. Lists that sellers poll (the
 * catalog) may be up to `ttlMs` stale; the key must carry everything the page depends on
 * (company, environment, URL, language). `found` is the page the request hook already took
 * from the cache (`peekCachedPage`).
 */
export async function cachedPage(
  ctx: AppContext,
  reply: FastifyReply,
  key: string,
  ttlMs: number,
  build: () => Promise<unknown>,
  found?: string | null,
): Promise<FastifyReply> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new TtlCache<string>(ttlMs, 5_000);
    caches.set(ctx, cache);
  }
  const now = ctx.clock.now();
  let body = found ?? cache.get(key, now);
  if (body === undefined) {
    body = String(reply.serialize(await build()));
    cache.set(key, body, now, ttlMs);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
