import type { Redis } from 'ioredis';
import type { Executor } from '../../../db/database.js';
import { fail } from '../../../http/errors.js';
import type { SlotStore, Taken } from './slot-store.js';

/**
 * One atomic script per reservation: check that the allocation's free units cover the
 * quantity and take them. Returns {1, free, uncarved} or {0, free, uncarved}: the free units
 * after the take, and the capacity left uncarved at the last refill.
 */
const TAKE = `
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local uncarved = tonumber(redis.call('GET', KEYS[2]) or '0')
local q = tonumber(ARGV[1])
if free >= q then
  redis.call('DECRBY', KEYS[1], q)
  return {1, free - q, uncarved}
end
return {0, free, uncarved}
`;

/** Empties the free units and returns what was there, in one step. */
const DRAIN = `
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
redis.call('SET', KEYS[1], 0)
return free
`;

const unavailable = (err: unknown) =>
  fail('STORE_UNAVAILABLE', 'The reservation store cannot answer; nothing was reserved.', {
    store: 'redis',
    reason: err instanceof Error ? err.message : String(err),
  });

/**
 * Hot-drop admission in Redis (PostgreSQL with REDIS_URL): one key of free units per allocation,
 * so one hot SKU is not one hot database row. PostgreSQL stays the source of truth for the
 * carved total, the reservations and the keys (docs/hot-drops.md).
 */
export class RedisSlotStore implements SlotStore {
  readonly transactional = false;
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'sdapi:hd:',
  ) {}

  private keys(allocationId: string) {
    return [`${this.prefix}${allocationId}:free`, `${this.prefix}${allocationId}:uncarved`];
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw unavailable(err);
    }
  }

  async take(_ex: Executor, allocationId: string, quantity: number): Promise<Taken | null> {
    const [ok, free, uncarved] = (await this.run(() =>
      this.redis.eval(TAKE, 2, ...this.keys(allocationId), quantity),
    )) as [number, number, number];
    return ok === 1 ? { slot: null, free, uncarved } : null;
  }

  async fill(_ex: Executor, allocationId: string, units: number, uncarved: number): Promise<void> {
    const [free, left] = this.keys(allocationId);
    await this.run(() => this.redis.multi().incrby(free!, units).set(left!, uncarved).exec());
  }

  async put(_ex: Executor, allocationId: string, _slot: number | null, units: number): Promise<void> {
    if (units <= 0) return;
    await this.run(() => this.redis.incrby(this.keys(allocationId)[0]!, units));
  }

  async remaining(_ex: Executor, allocationId: string): Promise<number> {
    const values = await this.run(() => this.redis.mget(...this.keys(allocationId)));
    return values.reduce((n, v) => n + Number(v ?? 0), 0);
  }

  async drain(_trx: Executor, allocationId: string): Promise<number> {
    return Number(await this.run(() => this.redis.eval(DRAIN, 1, this.keys(allocationId)[0]!)));
  }
}
