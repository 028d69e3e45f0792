import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../../context.js';
import { preparedPerShape } from '../../../db/compiled-once.js';
import type { Executor } from '../../../db/database.js';
import { unlessMissed } from '../../../db/guarded-writes.js';
import { nowMicros } from '../../../lib/ids.js';
import { type AllocationRow, grantPull } from '../../allocations/index.js';
import {
  announceEventsWritten,
  assertPayload,
  EVENT_TYPES,
  ensureEventDays,
  newEventId,
  type PendingEvent,
} from '../../events/index.js';
import type { FulfilRequest } from './fulfil-request.js';

/**
 * PostgreSQL's fast path (docs/checkout.md, "Fulfilment: one transaction"): the grant pull
 * (`grantPull`, the allocations repository's conditional counter update) and every event of the order (the order's own, then
 * `allocation.updated`, `allocation.low_stock` and `allocation.depleted` as the counter
 * crosses them) in one statement, the transaction's last, with its COMMIT queued behind it
 * (db/pipelined-transaction.ts). The grant's row lock is held for this statement and the commit.
 *
 * The capacity events' payloads are written here as their JSON without `remaining` (and
 * `threshold`), which the statement appends from the updated row, so they read exactly as
 * `pullEvents` writes them on the other path. When the update matches no row (the grant moved
 * since the quote read it) the statement raises SDF01 and the queued COMMIT rolls back: a miss
 * (`unlessMissed`, null), and the caller runs the order again on the locked path.
 *
 * Here as parts: the CTEs `upd` (the counter update, also on `condition`), `after` and
 * `events`, and the select that ends the statement (the updated grant, or SDF01), which the
 * one-statement order (one-statement.pg.ts) ends with too. It places the values it is given
 * (`tailValues`, markers when compiled once per shape) and reads none.
 */
export function counterAndEvents(v: TailValues, condition: RawBuilder<unknown>) {
  return {
    ctes: sql`upd as (
    ${grantPull({ id: v.allocationId, count: v.quantity, now: v.now }, condition)}
  ), after as (
    select upd.*, greatest(0, quantity_limit - quantity_pulled) as remaining from upd
  ), events as (
    insert into outbox_events (event_id, company_id, environment, event_type, event_version, payload,
      created_at_us, deliver_after, target_endpoint_id)
    select e.event_id, ${v.sellerId}, ${v.environment}, e.event_type, e.event_version,
      case e.kind
        when 'order' then e.payload
        when 'low_stock' then e.payload || ',"remaining":' || a.remaining || ',"threshold":' || a.low_stock_threshold || '}'
        else e.payload || ',"remaining":' || a.remaining || '}'
      end,
      e.created_at_us, ${v.deliverAfterMs}::bigint, null
    from after a cross join unnest(${v.eventIds}::text[], ${v.eventTypes}::text[],
      ${v.eventVersions}::int[], ${v.eventKinds}::text[], ${v.eventPayloads}::text[],
      ${v.eventCreatedAtUs}::bigint[])
      with ordinality as e(event_id, event_type, event_version, kind, payload, created_at_us, position)
    where e.kind in ('order', 'updated')
      or (e.kind = 'low_stock' and a.low_stock_threshold is not null and a.remaining > 0
          and a.remaining + ${v.quantity}::integer > a.low_stock_threshold and a.remaining <= a.low_stock_threshold)
      or (e.kind = 'depleted' and a.remaining = 0)
    order by e.position
    returning event_id
  )`,
    select: sql`select a.*, (select count(*) from events) as events_written,
    sdapi_require(a.id is not null, 'the fast path did not apply') as taken`,
    from: sql`from (select 1) as one left join after a on true`,
  };
}

/** The values `counterAndEvents` places (`preparedPerShape`): the grant, the order's quantity and events. */
export interface TailValues {
  allocationId: string;
  quantity: number;
  now: number;
  sellerId: string;
  environment: string;
  deliverAfterMs: number;
  eventIds: string[];
  eventTypes: string[];
  eventVersions: number[];
  eventKinds: Kind[];
  eventPayloads: string[];
  eventCreatedAtUs: number[];
}

export function tailValues(
  ctx: AppContext,
  req: FulfilRequest,
  orderEvent: PendingEvent,
  deliverAfterMs: number,
  now: number,
): TailValues {
  announceEventsWritten(ctx);
  const rows = eventRows(req, orderEvent, now);
  return {
    allocationId: req.quote.allocation.id,
    quantity: req.quantity,
    now,
    sellerId: req.actor.sellerId,
    environment: req.actor.environment,
    deliverAfterMs,
    eventIds: rows.map((r) => r.id),
    eventTypes: rows.map((r) => r.type),
    eventVersions: rows.map((r) => r.version),
    eventKinds: rows.map((r) => r.kind),
    eventPayloads: rows.map((r) => r.payload),
    eventCreatedAtUs: rows.map((r) => r.createdAtUs),
  };
}

type Kind = 'order' | 'updated' | 'low_stock' | 'depleted';

/** The order's events for the statement: the order's own complete, the capacity ones as templates. */
function eventRows(req: FulfilRequest, orderEvent: PendingEvent, now: number) {
  const { allocation, sku } = req.quote;
  const base = { allocationId: allocation.id, skuCode: sku.code };
  const template = (data: object) => JSON.stringify(data).slice(0, -1);
  assertPayload(orderEvent.eventType, orderEvent.data);
  assertPayload('allocation.updated', { ...base, remaining: 0 });
  assertPayload('allocation.low_stock', { ...base, remaining: 0, threshold: 0 });
  assertPayload('allocation.depleted', { ...base, remaining: 0 });
  const rows: [Kind, string, string][] = [
    ['order', orderEvent.eventType, JSON.stringify(orderEvent.data)],
    ['updated', 'allocation.updated', template(base)],
    ['low_stock', 'allocation.low_stock', template(base)],
    ['depleted', 'allocation.depleted', template(base)],
  ];
  return rows.map(([kind, type, payload]) => ({
    kind,
    type,
    payload,
    id: newEventId(now),
    version: EVENT_TYPES[type as keyof typeof EVENT_TYPES].version,
    createdAtUs: nowMicros(now),
  }));
}

const pullAndEmit = preparedPerShape(
  (_shape: null, v: TailValues & { promiseVersion: number }) => {
    const tail = counterAndEvents(v, sql`promise_version = ${v.promiseVersion}::integer`);
    return sql<AllocationRow & { remaining: number }>`with ${tail.ctes} ${tail.select} ${tail.from}`;
  },
  { lastOfTransaction: true },
);

/**
 * Moves the counter and writes the order's events, last; the transaction commits behind it.
 * Null when the grant moved (a miss): the transaction then rolls back, nothing written.
 */
export async function pullAndEmitLast(
  ctx: AppContext,
  trx: Executor,
  req: FulfilRequest,
  orderEvent: PendingEvent,
  deliverAfterMs: number | undefined,
): Promise<AllocationRow | null> {
  const now = ctx.clock.now();
  const values = tailValues(ctx, req, orderEvent, deliverAfterMs ?? now, now);
  await ensureEventDays(ctx, values.eventIds);
  const result = await unlessMissed(
    pullAndEmit(trx, null, { ...values, promiseVersion: req.quote.allocation.promise_version }),
  );
  return result?.rows[0] ?? null;
}
