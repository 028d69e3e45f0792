import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { type CursorKey, page } from '../../http/pagination.js';
import { isoOf } from '../../lib/clock.js';
import type { PromotionRow } from './promotions.repo.js';
import * as repo from './promotions.repo.js';
import { appliesToSeller } from './promotions.service.js';

const DAY_MS = 86_400_000;
export const MAX_CALENDAR_DAYS = 92;
const FAR_FUTURE = Date.UTC(9999, 0, 1);

interface Seller {
  sellerId: string;
  environment: string;
}

const stateOf = (row: PromotionRow, now: number) =>
  row.ends_at <= now ? 'ended' : row.starts_at > now ? 'scheduled' : 'running';

/** A promotion as a seller sees it: a `share` (public promotion) or a `deal` (aimed at this seller). */
export function promotionView(row: PromotionRow, now: number) {
  return {
    promotionId: row.id,
    kind: row.source_type === 'deal' ? ('deal' as const) : ('share' as const),
    sourceType: row.source_type,
    publisherCompanyId: row.publisher_company_id,
    productId: row.product_id ?? row.sku_product_id,
    skuId: row.sku_id,
    discountPercent: row.discount_percent,
    startsAt: isoOf(row.starts_at),
    endsAt: isoOf(row.ends_at),
    state: stateOf(row, now),
    requiresAcceptance: row.requires_acceptance === 1,
    response: row.response ?? null,
    respondedAt: row.responded_at == null ? null : isoOf(Number(row.responded_at)),
    appliesToPrices: appliesToSeller(row),
  };
}

/** GET /promotions: shares and deals that are running or scheduled (or ended, on request), by start. */
export async function listPromotions(
  ctx: AppContext,
  seller: Seller,
  q: { kind?: 'share' | 'deal'; includeEnded?: boolean; after?: readonly [number, string]; limit: number },
  urlFor: (cursor: string) => string,
) {
  const now = ctx.clock.now();
  const rows = await repo.visiblePromotions(ctx.db, {
    ...seller,
    now,
    from: q.includeEnded ? 0 : now,
    to: FAR_FUTURE,
    sourceType: q.kind === undefined ? undefined : q.kind === 'deal' ? 'deal' : 'promotion',
    after: q.after,
    limit: q.limit + 1,
  });
  const paged = page(rows, q.limit, (r): CursorKey => [r.starts_at, r.id], urlFor);
  return { data: paged.data.map((r) => promotionView(r, now)), meta: paged.meta };
}

const dayIndexOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (dayIndex: number) => new Date(dayIndex * DAY_MS).toISOString().slice(0, 10);

/**
 * GET /promotions/calendar: for each UTC day in [from, to] (default today and the next 30 days,
 * at most 92) the promotions running at any moment of that day. Days without one are left out.
 */
export async function promotionCalendar(ctx: AppContext, seller: Seller, q: { from?: string; to?: string }) {
  const now = ctx.clock.now();
  const from = q.from ? dayIndexOf(q.from) : Math.floor(now / DAY_MS);
  const to = q.to ? dayIndexOf(q.to) : from + 30;
  if (to < from || to - from + 1 > MAX_CALENDAR_DAYS) {
    throw fail(
      'VALIDATION_FAILED',
      `from must not be after to, and the span at most ${MAX_CALENDAR_DAYS} days.`,
      {
        issues: [{ field: 'from', in: 'query', message: 'span of 1 to 92 days', keyword: 'range' }],
      },
    );
  }
  const rows = await repo.visiblePromotions(ctx.db, {
    ...seller,
    now,
    from: from * DAY_MS,
    to: (to + 1) * DAY_MS,
  });
  const views = rows.map((r) => ({ row: r, view: promotionView(r, now) }));
  const days = [];
  for (let day = from; day <= to; day++) {
    const start = day * DAY_MS;
    const running = views.filter(({ row }) => row.starts_at < start + DAY_MS && row.ends_at > start);
    if (running.length > 0) days.push({ date: dateOf(day), promotions: running.map((r) => r.view) });
  }
  return { data: days, meta: { from: dateOf(from), to: dateOf(to), count: days.length } };
}

/**
 * POST /promotions/{id}/respond: the seller accepts or declines a share or a deal it sees; the
 * latest answer counts. A deal that needs acceptance applies to prices from its acceptance on.
 */
export async function respondToPromotion(
  ctx: AppContext,
  seller: Seller,
  promotionId: string,
  answer: 'accept' | 'decline',
) {
  const now = ctx.clock.now();
  const find = async () =>
    (await repo.visiblePromotions(ctx.db, { ...seller, now, from: 0, to: FAR_FUTURE, id: promotionId }))[0];
  const row = await find();
  if (!row) throw fail('NOT_FOUND', `No promotion ${promotionId}.`);
  if (row.ends_at <= now) {
    throw fail('VALIDATION_FAILED', `Promotion ${promotionId} ended at ${isoOf(row.ends_at)}.`, {
      reason: 'promotion_ended',
      issues: [{ field: 'promotionId', in: 'path', message: 'promotion ended', keyword: 'state' }],
    });
  }
  await repo.saveResponse(ctx.db, {
    promotion_id: promotionId,
    seller_company_id: seller.sellerId,
    response: answer === 'accept' ? 'accepted' : 'declined',
    responded_at: now,
  });
  return promotionView((await find())!, now);
}
