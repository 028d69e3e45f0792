import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../../context.js';
import { preparedPerShape } from '../../../db/compiled-once.js';
import type { Executor } from '../../../db/database.js';
import { isPostgres } from '../../../db/dialect.js';
import { unlessMissed } from '../../../db/guarded-writes.js';
import { claimHeldBy, type HeldClaim, heldClaimOf } from '../../../http/idempotency/idempotency.repo.js';
import { ensureEventDays } from '../../events/index.js';
import { saleRows } from '../../finance/index.js';
import type { PoolRow } from '../../inventory/index.js';
import { type ClaimedKey, choosePools, claimedIds, openKeys } from '../../inventory/index.js';
import { catalogStillAt } from '../line/checkout.repo.js';
import { counterAndEvents, type TailValues, tailValues } from './fast-commit.pg.js';
import { type Fulfilment, financeOf, orderEvent, orderRow } from './fulfil.service.js';
import type { FulfilRequest } from './fulfil-request.js';

/**
 * PostgreSQL, the common order as one statement (docs/checkout.md, "One statement"): a priced
 * order of keys from one finite pool, on a grant with nothing promised or committing a
 * hot-drop reservation. Insert the order, consume the reservation (a commit), claim the keys
 * (SKIP LOCKED), write the sale line and its activity entry, then move the grant's counter
 * (conditional on the keys being there) and write the order's events, last. One statement is
 * its own transaction: one round trip, no BEGIN or COMMIT to send, and the grant's row lock is
 * held from the end of the statement through its commit only.
 *
 * A plain order requires the grant's `promise_version` unchanged since the quote (nothing
 * promised meanwhile). A commit needs no such check: its units were carved for it, and it
 * moves them from carved to pulled (the sum every promise is bounded by does not change). A
 * quote judged on the cached catalog without reading its version (`Quote.versionToProve`)
 * requires that version still current.
 *
 * A keyed request's claim is fenced (claim-fence.ts): the keys are claimed only while the
 * request still holds it, its row locked through the commit. A claim taken over is one more
 * thing the statement cannot decide.
 *
 * Anything the statement cannot decide (too few keys, the grant paused, out of hot-drop mode
 * or headroom, promised since the quote, the reservation expired, the catalog moved since a
 * speculative quote) raises SDF01 and writes nothing: a miss (`unlessMissed`, null), and the
 * caller runs the order again on the locked path, which answers with the exact refusal, or
 * first quotes it again.
 */

/** The one pool the order would claim from, if it runs on PostgreSQL and has the statement's shape. */
export function oneStatementPool(db: Executor, req: FulfilRequest): PoolRow | null {
  if (!isPostgres(db)) return null;
  const { quote } = req;
  if (req.kind !== 'order' || (req.delivery !== 'keys' && req.delivery !== 'deferred')) return null;
  if (req.holdId || req.attestId || req.simulate || quote.price.unitPriceCents === null) return null;
  if (!req.reservation && quote.allocation.promise_version !== 0) return null;
  const { dedicated, shared } = choosePools(quote.pools, req.actor.environment, quote.allocation.id);
  const pool = dedicated && shared ? null : (dedicated ?? shared);
  return pool?.replenish_mode === 'none' ? pool : null;
}

/** `insert into <table> (columns) values (parameters)`, one row, in the row's key order. */
function insertRow(table: string, row: Record<string, unknown>): RawBuilder<unknown> {
  const columns = Object.keys(row);
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    values (${sql.join(columns.map((c) => row[c]))})`;
}

interface Shape {
  /** A commit of a hot-drop reservation, rather than a plain order. */
  committing: boolean;
  /** The request has an Idempotency-Key claim to fence (claim-fence.ts). */
  fenced: boolean;
  /** The quote was judged on a catalog version nobody read (`Quote.versionToProve`). */
  proving: boolean;
}

interface Values extends TailValues {
  order: Record<string, unknown>;
  sale: Record<string, unknown>;
  activity: Record<string, unknown>;
  orderId: string;
  poolId: string;
  promiseVersion: number;
  version: number | null;
  reservationId: string | null;
  reservationQuantity: number | null;
  claim: HeldClaim | null;
}

/**
 * A commit's reservation (`committing`, made so by this commit) consumed, unexpired, and its
 * units out of the carved total: the CTEs `consumed` and `uncarved`.
 */
const consumed = (v: Values) => sql`consumed as (
      update reservations set status = 'consumed', updated_at = ${v.now}::bigint
      where id = ${v.reservationId} and status = 'committing' and expires_at > ${v.now}::bigint
      returning id
    ), uncarved as (
      update reservation_pools set carved = carved - ${v.reservationQuantity}::integer
      where allocation_id = ${v.allocationId} and exists (select 1 from consumed)
    )`;

/** The statement, compiled once per shape: every value below is a placed parameter. */
const oneStatement = preparedPerShape((shape: Shape, v: Values, ex) => {
  // Every key claimed, and the finance rows written before the grant is locked: a CTE no one
  // reads would run after the rest of the statement, under the grant's lock.
  const enoughKeys = sql`(select count(*) from claimed) = ${v.quantity}::integer
    and exists (select 1 from sale) and exists (select 1 from activity)${
      shape.proving ? sql` and ${catalogStillAt(v.version as number)}` : sql``
    }`;
  const tail = counterAndEvents(
    v,
    shape.committing
      ? sql`hot_drop = 1 and ${enoughKeys}`
      : sql`promise_version = ${v.promiseVersion}::integer and ${enoughKeys}`,
  );
  return sql<{ keys: ClaimedKey[] | null }>`with placed as (
      ${insertRow('orders', v.order)} returning id
    ), ${shape.committing ? consumed(v) : sql`consumed as (select 1)`},
    ${shape.fenced ? sql`fenced as (${claimHeldBy(v.claim as HeldClaim)})` : sql`fenced as (select 1)`},
    claimed as (
      update game_keys set state = 'sold', order_id = ${v.orderId}, sold_at = ${v.now}::bigint
      where exists (select 1 from placed) and exists (select 1 from consumed) and exists (select 1 from fenced)
        and ${claimedIds(ex, v.poolId, v.quantity)}
      returning id, ciphertext
    ), sale as (
      ${insertRow('sale_lines', v.sale)} returning id
    ), activity as (
      ${insertRow('activity_entries', v.activity)} returning id
    ), ${tail.ctes}
    ${tail.select},
      (select json_agg(json_build_object('id', id, 'ciphertext', ciphertext) order by id) from claimed) as keys
    ${tail.from}`;
});

/** The order in one statement; null (a miss, nothing written) when it must run on the locked path. */
export async function fulfilInOneStatement(
  ctx: AppContext,
  ex: Executor,
  req: FulfilRequest,
  pool: PoolRow,
): Promise<Fulfilment | null> {
  const now = ctx.clock.now();
  const order = orderRow(req, now);
  const { sale } = financeOf(req, order.id, req.quote.allocation, now);
  const rows = saleRows(sale!);
  const version = req.quote.versionToProve;
  const tail = tailValues(ctx, req, orderEvent(req, now), now, now);
  await ensureEventDays(ctx, tail.eventIds);
  const written = await unlessMissed(
    oneStatement(
      ex,
      { committing: req.reservation !== undefined, proving: version !== null, fenced: req.claim !== null },
      {
        ...tail,
        order,
        sale: rows.sale,
        activity: rows.activity,
        orderId: order.id,
        poolId: pool.id,
        promiseVersion: req.quote.allocation.promise_version,
        version,
        reservationId: req.reservation?.id ?? null,
        reservationQuantity: req.reservation?.quantity ?? null,
        claim: req.claim && heldClaimOf(req.claim),
      },
    ),
  );
  if (!written) return null;
  const keys = written.rows[0]?.keys ?? [];
  const plaintext = req.delivery === 'keys' ? openKeys(ctx, keys) : [];
  return { order, keys, plaintext, hold: null, redemption: null };
}
