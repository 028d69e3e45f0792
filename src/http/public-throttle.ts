import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { sha256Hex } from '../lib/crypto.js';

const WINDOW_MS = 60_000;

/**
 * Per-address throttle of the routes a browser calls without a key (the checkout page's geo
 * capture, the hosted redemption page): a guesser of links or a flood from one address is
 * slowed; a buyer never notices. The window is keyed by a peppered hash, never the address.
 */
export async function throttleByAddress(
  ctx: AppContext,
  request: FastifyRequest,
  name: string,
  perMinute: number,
): Promise<{ allowed: boolean; retryAfterSec: number }> {
  const address = request.clientIp ?? 'unknown';
  const key = `public:${name}:${sha256Hex(`${ctx.config.ipPepper ?? ''}|${address}`).slice(0, 32)}`;
  const decision = await ctx.rateLimits.hit(key, perMinute, WINDOW_MS, ctx.clock.now());
  return { allowed: decision.allowed, retryAfterSec: decision.retryAfterSec };
}
