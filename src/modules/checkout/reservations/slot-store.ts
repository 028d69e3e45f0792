import type { Executor } from '../../../db/database.js';

/** Slot rows per allocation in the database store: concurrent reservations update different rows. */
export const SLOTS = 32;

export interface Taken {
  /** The slot row the units came from (database store), null with Redis. */
  slot: number | null;
  /** Units left free in the store after this take (carved, not reserved). */
  free: number;
  /** The capacity left uncarved at the last refill. */
  uncarved: number;
  /** Redis: the generation of the copy the units came from (redis-slot-store.ts). */
  generation?: number;
}

/** What a take leaves for the next reservations (`remainingSlots`): free in the store, and uncarved. */
export const slotsLeft = (levels: Pick<Taken, 'free' | 'uncarved'>) => levels.free + levels.uncarved;

/**
 * Where the free carved units of a hot-drop allocation live (docs/hot-drops.md). Each operation
 * is atomic. The database store runs on the executor it is given, so inside a transaction it
 * commits or rolls back with it (`transactional`); Redis ignores it and applies at once, so
 * the caller orders its operations against the database transaction in the safe direction:
 * take and drain before (given back if the transaction fails), fill and put after it commits.
 * Redis writes name the generation of the copy they are meant for (`sync`): a crash or a Redis
 * fault in between makes the copy stale, and it is rebuilt from the database; no unit is
 * promised twice or stranded.
 */
export interface SlotStore {
  readonly transactional: boolean;
  /** Takes `quantity` free units, or null when none are free. `wait`: queue behind busy slots. */
  take(ex: Executor, allocationId: string, quantity: number, wait?: boolean): Promise<Taken | null>;
  /**
   * Under the grant's lock: makes the store agree with the database (Redis: rebuilt when lost
   * or stale) and returns the generation to write with.
   */
  sync(trx: Executor, allocationId: string): Promise<number>;
  /** Adds newly carved units, and records the capacity left uncarved. */
  fill(
    ex: Executor,
    allocationId: string,
    units: number,
    uncarved: number,
    generation?: number,
  ): Promise<void>;
  /** Gives units back (a reservation ended, or a failed take). */
  put(
    ex: Executor,
    allocationId: string,
    slot: number | null,
    units: number,
    generation?: number,
  ): Promise<void>;
  /** Free units plus the capacity left uncarved at the last refill (`remainingSlots`). */
  remaining(ex: Executor, allocationId: string): Promise<number>;
  /** Empties the store of the allocation, in a transaction; returns the free units it held. */
  drain(trx: Executor, allocationId: string, generation?: number): Promise<number>;
  /** Hot-drop mode off, under the grant's lock: the carved units no live reservation holds, freed. */
  retire(trx: Executor, allocationId: string): Promise<number>;
  /** A write to the store failed or its outcome is unknown: the copy is rebuilt before its next use. */
  markStale(ex: Executor, allocationId: string): Promise<void>;
}
