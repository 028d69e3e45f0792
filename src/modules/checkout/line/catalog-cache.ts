import type { AppContext } from '../../../context.js';
import { readCatalogVersion } from './checkout.repo.js';

/**
 * Reads of the quote that change only with a publisher-side change (SKU, product and release,
 * prices, reference rates, partner connections and agreements, shares), cached per process
 * under the catalog version. Triggers bump `catalog_version` in the same transaction as every
 * change of those tables (migration 0009), so the version a request reads first is never
 * older than the data it then reads: a request that sees the current version may use what was
 * loaded under it; any other version starts an empty set. Every process (every PostgreSQL app
 * instance) reads the version row on each quote, one primary-key read, so a change committed
 * by another process is seen by the next request, with no notification to lose. On PostgreSQL
 * the quote reads it in one statement with its uncached reads, for the SKU it guesses from the
 * current generation, and keeps the guess only if that version is the generation's
 * (hot-reads.ts).
 */
interface Generation {
  version: number;
  entries: Map<string, Promise<unknown>>;
}

/** Entries per version before the set starts over (a bound, not an eviction policy). */
const MAX_ENTRIES = 10_000;
const generations = new WeakMap<AppContext, Generation>();

export interface CatalogReads {
  /** The value under `key` as loaded under this request's version, loading it once. */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** As `get`, but a value `current` refuses (one that went stale with time) is loaded again. */
  getCurrent<T>(key: string, load: () => Promise<T>, current: (value: T) => boolean): Promise<T>;
}

/** The catalog version now. */
export async function catalogVersion(ctx: AppContext): Promise<number> {
  return readCatalogVersion(ctx.db);
}

/** The cached reads for one request: reads the version first, then serves or loads. */
export async function catalogReads(ctx: AppContext): Promise<CatalogReads> {
  return catalogReadsAt(ctx, await catalogVersion(ctx));
}

/**
 * The cached reads under `version`, which the request read before anything it will read under
 * it (here or in one statement with its other reads: hot-reads.ts).
 */
export function catalogReadsAt(ctx: AppContext, version: number): CatalogReads {
  let generation = generations.get(ctx);
  if (!generation || generation.version !== version || generation.entries.size >= MAX_ENTRIES) {
    generation = { version, entries: new Map() };
    // A request that read an older version keeps its own generation and never writes here.
    if (version >= (generations.get(ctx)?.version ?? -1)) generations.set(ctx, generation);
  }
  const { entries } = generation;
  const get = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let value = entries.get(key) as Promise<T> | undefined;
    if (!value) {
      value = load();
      entries.set(key, value);
      value.catch(() => entries.delete(key));
    }
    return value;
  };
  return {
    get,
    async getCurrent<T>(key: string, load: () => Promise<T>, current: (value: T) => boolean) {
      const cached = get(key, load);
      if (current(await cached)) return cached;
      if (entries.get(key) === cached) entries.delete(key);
      return get(key, load);
    },
  };
}

/**
 * Drops what the process's current generation holds under `key`: a value the request found
 * wrong in a way the version does not track (the order path's counters moved), so that the
 * next request loads it again.
 */
export function forgetEntry(ctx: AppContext, key: string): void {
  generations.get(ctx)?.entries.delete(key);
}

/**
 * What the process's current generation holds under `key`, with that generation's version,
 * without reading the version: a guess to speculate on, valid for a request only if the version
 * it then reads, or its write statement proves, is the same (hot-reads.ts). Undefined when
 * nothing was loaded under `key`.
 */
export function currentEntry<T>(
  ctx: AppContext,
  key: string,
): { version: number; value: Promise<T> } | undefined {
  const generation = generations.get(ctx);
  const value = generation?.entries.get(key) as Promise<T> | undefined;
  return generation && value ? { version: generation.version, value } : undefined;
}
