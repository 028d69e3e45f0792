import type { Redis } from 'ioredis';
import { decide, type RateLimitDecision, type RateLimitStore } from './store.js';

/**
 * Reads both windows and increments the current one only when the caller's decision (the same
 * `decide` as in memory) admits the hit. Atomic per key: the script re-checks the count it read.
 */
const SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local expected = tonumber(ARGV[1])
if expected >= 0 and current == expected then
  current = redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, current, previous}
end
return {0, current, previous}
`;

/** Windows shared by every process through Redis (REDIS_URL). The owner closes the connection. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'sdapi:rl:',
  ) {}

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<RateLimitDecision> {
    const windowIndex = Math.floor(nowMs / windowMs);
    const keys = [`${this.prefix}${key}:${windowIndex}`, `${this.prefix}${key}:${windowIndex - 1}`];
    let expected = -1;
    for (let attempt = 0; attempt < 5; attempt++) {
      const [incremented, current, previous] = (await this.redis.eval(
        SCRIPT,
        2,
        ...keys,
        expected,
        windowMs * 2,
      )) as number[];
      if (incremented === 1) {
        const decision = decide(current! - 1, previous!, limit, windowMs, nowMs);
        const { counted: _counted, ...result } = decision;
        return result;
      }
      const decision = decide(current!, previous!, limit, windowMs, nowMs);
      if (!decision.allowed) {
        const { counted: _counted, ...result } = decision;
        return result;
      }
      expected = current!;
    }
    const { counted: _counted, ...result } = decide(limit, 0, limit, windowMs, nowMs);
    return result;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
