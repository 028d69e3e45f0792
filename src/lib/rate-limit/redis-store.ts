import type { Redis } from 'ioredis';
import { decide, type RateLimitDecision, type RateLimitStore } from './store.js';

/**
 * One atomic script per hit: read both windows, apply the same rule as `decide` (the weight of
 * the previous window comes from the caller's clock), and count the hit only when admitted.
 * Returns the counts as they were before this hit.
 */
const SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])
local weight = tonumber(ARGV[2])
if current + math.floor(previous * weight) + 1 <= limit then
  redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {current, previous}
`;

/** Windows shared by every process through Redis (REDIS_URL). The owner closes the connection. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'sdapi:rl:',
  ) {}

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<RateLimitDecision> {
    const windowIndex = Math.floor(nowMs / windowMs);
    const weight = 1 - (nowMs - windowIndex * windowMs) / windowMs;
    const keys = [`${this.prefix}${key}:${windowIndex}`, `${this.prefix}${key}:${windowIndex - 1}`];
    const [current, previous] = (await this.redis.eval(SCRIPT, 2, ...keys, limit, weight, windowMs * 2)) as [
      number,
      number,
    ];
    const { counted: _counted, ...decision } = decide(current, previous, limit, windowMs, nowMs);
    return decision;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
