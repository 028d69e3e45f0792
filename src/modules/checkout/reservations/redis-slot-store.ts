import type { Redis } from 'ioredis';
import type { Executor } from '../../../db/database.js';
import { fail } from '../../../http/errors.js';
import * as pools from './pool-generation.repo.js';
import type { SlotStore, Taken } from './slot-store.js';

/**
 * Keys of an allocation: 1 free units, 2 capacity left uncarved at the last refill, 3 the
 * generation of this copy (`reservation_pools.generation` when it was written). A copy without
 * its generation was lost (a restart without persistence, a failover to an empty replica, an
 * eviction, a FLUSHALL) or never written: nothing is taken from it until it is rebuilt.
 */

/** Returns {1, free, uncarved, generation} after a take, {0, ...} when short, {-1} when lost. */
const TAKE = `
local gen = redis.call('GET', KEYS[3])
if not gen then return {-1, 0, 0, '0'} end
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local uncarved = tonumber(redis.call('GET', KEYS[2]) or '0')
local q = tonumber(ARGV[1])
if free >= q then
  redis.call('DECRBY', KEYS[1], q)
  return {1, free - q, uncarved, gen}
end
return {0, free, uncarved, gen}
`;

/** Adds units (ARGV[1]) and, when given, sets uncarved (ARGV[3]): only to the copy of generation ARGV[2]. */
const ADD = `
if redis.call('GET', KEYS[3]) ~= ARGV[2] then return 0 end
redis.call('INCRBY', KEYS[1], ARGV[1])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3]) end
return 1
`;

/** Empties the free units of the copy of generation ARGV[1] and returns what was there. */
const DRAIN = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
redis.call('SET', KEYS[1], 0)
return free
`;

const unavailable = (err: unknown) =>
  fail(
    'STORE_UNAVAILABLE',
    'The reservation store cannot answer; nothing was reserved.',
    { store: 'redis', reason: err instanceof Error ? err.message : String(err) },
    { 'Retry-After': '1' },
  );

/**
 * Hot-drop admission in Redis (PostgreSQL with REDIS_URL): one key of free units per allocation,
 * so one hot SKU is not one hot database row. Redis is a cache: PostgreSQL holds the carved
 * total, the reservations and the keys, and the free units are always carved minus the units of
 * live and committing reservations. Every write names the generation it belongs to, so a write
 * meant for a copy that was since rebuilt is dropped (the rebuild counted it already); a copy
 * that was lost or disagrees with PostgreSQL is rebuilt under the grant's lock (`sync`).
 */
export class RedisSlotStore implements SlotStore {
  readonly transactional = false;
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'sdapi:hd:',
  ) {}

  private keys(allocationId: string) {
    const base = `${this.prefix}${allocationId}`;
    return [`${base}:free`, `${base}:uncarved`, `${base}:gen`] as const;
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw unavailable(err);
    }
  }

  async take(_ex: Executor, allocationId: string, quantity: number): Promise<Taken | null> {
    const [ok, free, uncarved, generation] = (await this.run(() =>
      this.redis.eval(TAKE, 3, ...this.keys(allocationId), quantity),
    )) as [number, number, number, string];
    return ok === 1 ? { slot: null, free, uncarved, generation: Number(generation) } : null;
  }

  async sync(trx: Executor, allocationId: string): Promise<number> {
    const stored = await pools.generationOf(trx, allocationId);
    const copy = await this.run(() => this.redis.get(this.keys(allocationId)[2]));
    if (copy !== null && Number(copy) === stored) return stored;
    return this.rebuild(trx, allocationId);
  }

  /**
   * The free units again from PostgreSQL, under the grant's lock (held by the caller) and a
   * share lock on the reservations (every reservation write in progress commits first, and
   * none starts until this commits): carved minus live and committing. The new generation is
   * written to both; the reservation of a unit taken from the lost copy is refused by its
   * generation (`recordReservation`) and given back to nobody.
   */
  private async rebuild(trx: Executor, allocationId: string): Promise<number> {
    const pool = await pools.lockForRebuild(trx, allocationId);
    const held = await pools.heldUnits(trx, allocationId);
    const generation = await pools.nextGeneration(trx, allocationId);
    const [free, uncarved, gen] = this.keys(allocationId);
    await this.run(() =>
      this.redis
        .multi()
        .set(free, Math.max(0, pool.carved - held))
        .set(uncarved, pool.uncarved)
        .set(gen, generation)
        .exec(),
    );
    return generation;
  }

  async fill(
    _ex: Executor,
    allocationId: string,
    units: number,
    uncarved: number,
    generation?: number,
  ): Promise<void> {
    await this.run(() =>
      this.redis.eval(ADD, 3, ...this.keys(allocationId), units, String(generation), uncarved),
    );
  }

  async put(_ex: Executor, allocationId: string, _slot: number | null, units: number, generation?: number) {
    if (units <= 0) return;
    await this.run(() => this.redis.eval(ADD, 3, ...this.keys(allocationId), units, String(generation), ''));
  }

  async remaining(_ex: Executor, allocationId: string): Promise<number> {
    const values = await this.run(() => this.redis.mget(...this.keys(allocationId).slice(0, 2)));
    return values.reduce((n, v) => n + Number(v ?? 0), 0);
  }

  async drain(_trx: Executor, allocationId: string, generation?: number): Promise<number> {
    return Number(
      await this.run(() => this.redis.eval(DRAIN, 3, ...this.keys(allocationId), String(generation))),
    );
  }

  /**
   * Hot-drop mode off: whatever Redis holds, the carved total becomes the units of live and
   * committing reservations (returns the units freed); the copy in Redis is retired with the
   * generation, and deleted when Redis answers.
   */
  async retire(trx: Executor, allocationId: string): Promise<number> {
    const pool = await pools.lockForRebuild(trx, allocationId);
    const held = await pools.heldUnits(trx, allocationId);
    await pools.nextGeneration(trx, allocationId);
    await this.redis.del(...this.keys(allocationId)).catch(() => undefined);
    return Math.max(0, pool.carved - held);
  }

  async markStale(ex: Executor, allocationId: string): Promise<void> {
    await pools.nextGeneration(ex, allocationId);
  }
}
