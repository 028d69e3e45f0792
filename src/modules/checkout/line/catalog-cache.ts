import type { AppContext } from '../../../context.js';
import { compiledOnce } from '../../../db/compiled-once.js';

/**
 * Reads of the quote that change only with a publisher-side change (SKU, product and release,
 * prices, reference rates, partner connections and agreements, shares), cached per process
 * under the catalog version. Triggers bump `catalog_version` in the same transaction as every
 * change of those tables (migration 0009), so the version a request reads first is never
 * older than the data it then reads: a request that sees the current version may use what was
 * loaded under it; any other version starts an empty set. Every process (every PostgreSQL app
 * instance) reads the version row on each quote, one primary-key read, so a change committed
 * by another process is seen by the next request, with no notification to lose.
 */
interface Generation {
  version: number;
  entries: Map<string, Promise<unknown>>;
}

/** Entries per version before the set starts over (a bound, not an eviction policy). */
const MAX_ENTRIES = 10_000;
const generations = new WeakMap<AppContext, Generation>();

const versionRow = compiledOnce([], (db) =>
  db.selectFrom('catalog_version').select('version').where('id', '=', 1),
);

export interface CatalogReads {
  /** The value under `key` as loaded under this request's version, loading it once. */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** The cached reads for one request: reads the version first, then serves or loads. */
export async function catalogReads(ctx: AppContext): Promise<CatalogReads> {
  const { rows } = await versionRow(ctx.db, {});
  const version = Number(rows[0]?.version ?? 0);
  let generation = generations.get(ctx);
  if (!generation || generation.version !== version || generation.entries.size >= MAX_ENTRIES) {
    generation = { version, entries: new Map() };
    // A request that read an older version keeps its own generation and never writes here.
    if (version >= (generations.get(ctx)?.version ?? -1)) generations.set(ctx, generation);
  }
  const { entries } = generation;
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      let value = entries.get(key) as Promise<T> | undefined;
      if (!value) {
        value = load();
        entries.set(key, value);
        value.catch(() => entries.delete(key));
      }
      return value;
    },
  };
}
