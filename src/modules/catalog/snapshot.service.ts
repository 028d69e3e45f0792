import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { isoOf } from '../../lib/clock.js';
import { memoPerObject } from '../../lib/memo.js';
import * as repo from './catalog-read.repo.js';
import { productBase, type SellerScope, usListPriceFrom } from './catalog-read.service.js';
import { expansions } from './products-read.service.js';

export type SnapshotFormat = 'json' | 'ndjson';
const BATCH = 500;
const STAMP_TTL_MS = 5_000;

export interface SnapshotMeta {
  maxUpdatedAt: string | null;
  totalProducts: number;
}

/**
 * (maxUpdatedAt, totalProducts) of the visible catalog, from ids and stamps only, cached for a
 * few seconds per seller: a revalidation (304) never reads the catalog itself.
 */
export async function snapshotMeta(ctx: AppContext, scope: SellerScope): Promise<SnapshotMeta> {
  const now = ctx.clock.now();
  return (await ctx.companyCache.getOrLoad(
    `snapshot:${scope.sellerId}:${scope.environment}`,
    now,
    async () => {
      const stamps = await repo.visibleProductStamps(ctx.db, scope.sellerId, scope.environment, now);
      const max = stamps.reduce((m, s) => Math.max(m, s.updated_at), 0);
      return { maxUpdatedAt: stamps.length > 0 ? isoOf(max) : null, totalProducts: stamps.length };
    },
    STAMP_TTL_MS,
  )) as SnapshotMeta;
}

/**
 * Weak ETag derived from (maxUpdatedAt, totalProducts) alone: every representation of one catalog
 * state (gzip or identity, json or ndjson, any language) carries the same tag, so a client that
 * revalidates with another Accept-Encoding still gets its 304. Caches keep the representations
 * apart by URL and `Vary`. Remembered per cached meta: a revalidation hashes nothing.
 */
export const snapshotEtag = (meta: SnapshotMeta): string => tagOfMeta(meta, 'tag');

const tagOfMeta = memoPerObject((meta: SnapshotMeta, _tag: 'tag'): string => {
  const digest = hash('sha256', `${meta.maxUpdatedAt}|${meta.totalProducts}`, 'base64url');
  return `W/"${digest.slice(0, 27)}"`;
}, 1);

/**
 * Does Accept-Encoding admit gzip? RFC 9110 12.5.3: `x-gzip` is gzip, `q=0` refuses a coding,
 * and `*` stands for every coding not named.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const entry of acceptEncoding.split(',')) {
    const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding === 'gzip' || coding === 'x-gzip') gzip = weight;
    else if (coding === '*') any = weight;
  }
  const weight = gzip ?? any ?? 0;
  return weight > 0;
}

/** Does If-None-Match name this ETag (weak comparison, lists and `*` honoured)? */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  const opaque = opaqueTag(etag);
  for (const listed of ifNoneMatch.split(',')) {
    const tag = listed.trim();
    if (tag === '*' || opaqueTag(tag) === opaque) return true;
  }
  return false;
}

const opaqueTag = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * The snapshot as a stream: products are read in keyset batches of 500 with their availability
 * and pricing expansions and written out as they are built, so memory stays flat however large
 * the catalog.
 */
export function snapshotStream(
  ctx: AppContext,
  scope: SellerScope,
  meta: SnapshotMeta,
  format: SnapshotFormat,
  chain: string[],
): Readable {
  const expand = new Set(['availability', 'pricing']);
  const header = { ...meta, format, generatedAt: isoOf(ctx.clock.now()) };
  async function* lines() {
    yield format === 'ndjson' ? `${JSON.stringify(header)}\n` : `{"meta":${JSON.stringify(header)},"data":[`;
    let before: readonly [number, string] | undefined;
    let first = true;
    for (;;) {
      const rows = await repo.listVisibleProducts(ctx.db, {
        ...scope,
        nowMs: ctx.clock.now(),
        before,
        limit: BATCH,
      });
      if (rows.length === 0) break;
      const { prices, floors, availability } = await expansions(ctx, scope, rows, expand);
      let chunk = '';
      for (const row of rows) {
        const listPriceFromCents = usListPriceFrom(prices.get(row.id));
        const product = {
          ...productBase(row, chain, listPriceFromCents),
          availability: availability.get(row.id) ?? {
            available: 0,
            allocationRemaining: 0,
            inventoryAvailable: 0,
            skuCount: 0,
          },
          pricing: { wholesaleFromCents: floors.get(row.id) ?? null, listPriceFromCents },
        };
        chunk +=
          format === 'ndjson'
            ? `${JSON.stringify(product)}\n`
            : `${first ? '' : ','}${JSON.stringify(product)}`;
        first = false;
      }
      yield chunk;
      const last = rows.at(-1)!;
      before = [last.created_at, last.id];
      if (rows.length < BATCH) break;
    }
    if (format === 'json') yield ']}';
  }
  return Readable.from(lines());
}
