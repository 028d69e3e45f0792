import { type RawBuilder, sql } from 'kysely';
import { preparedPerShape } from '../../../db/compiled-once.js';
import type { Executor } from '../../../db/database.js';
import { unlessMissed } from '../../../db/guarded-writes.js';
import type { OutboxRow } from '../../events/index.js';
import { catalogStillAt } from '../line/checkout.repo.js';
import type { ReservationsTable } from './reservations.table.js';
import { SLOTS, type Taken } from './slot-store.js';

/**
 * The hot path of POST /orders/reserve on PostgreSQL, one statement each (one round trip, the
 * slot row locked only for that statement): written in SQL rather than built, since the
 * data-modifying CTEs are the point. SQLite runs the same steps in one transaction
 * (write-reservation.ts); both are covered by the same tests.
 */

type NewRow = Omit<ReservationsTable, 'slot'>;

interface Shape {
  /** The quote was judged on a catalog version nobody read (`Quote.versionToProve`). */
  proving: boolean;
}

interface Values {
  row: NewRow;
  event: OutboxRow;
  version: number | null;
}

const reservationValues = (row: NewRow, slot: RawBuilder<unknown>) => sql`
  ${row.id}, ${row.seller_company_id}, ${row.environment}, ${row.api_key_id}, ${row.allocation_id},
  ${row.sku_code}, ${row.quantity}::integer, ${row.order_reference}, ${row.line}, ${slot}, ${row.status},
  ${row.extended}::integer, ${row.expires_at}::bigint, ${row.created_at}::bigint, ${row.updated_at}::bigint`;

const RESERVATION_COLUMNS = sql`(id, seller_company_id, environment, api_key_id, allocation_id, sku_code,
  quantity, order_reference, line, slot, status, extended, expires_at, created_at, updated_at)`;

/**
 * A reservation quoted on a catalog version nobody read (`Quote.versionToProve`) is written only
 * if that version is current: otherwise the statement misses (SDF01, which `unlessMissed` makes
 * null) and writes nothing, and its function answers `'unproven'`.
 */
const proven = (shape: Shape, version: number | null) =>
  shape.proving
    ? sql` and (select sdapi_require(${catalogStillAt(version as number)}, 'the catalog moved since the quote'))`
    : sql``;

const outboxInsert = (e: OutboxRow, after: RawBuilder<unknown>) => sql`
  insert into outbox_events (event_id, company_id, environment, event_type, event_version, payload,
    created_at_us, deliver_after, target_endpoint_id)
  select ${e.event_id}, ${e.company_id}, ${e.environment}, ${e.event_type}, ${e.event_version}::integer,
    ${e.payload}, ${e.created_at_us}::bigint, ${e.deliver_after}::bigint, ${e.target_endpoint_id}::text
  where exists (${after})`;

const takeAndRecordStatement = preparedPerShape(
  (shape: Shape, v: Values & { start: number }) => sql<{ slot: number; free: number; uncarved: number }>`
    with s as (
      update reservation_slots set free = free - ${v.row.quantity}::integer
      where allocation_id = ${v.row.allocation_id} and free >= ${v.row.quantity}::integer${proven(shape, v.version)}
        and slot = (
        select slot from reservation_slots
        where allocation_id = ${v.row.allocation_id} and free >= ${v.row.quantity}::integer
        order by (slot + ${v.start}::integer) % ${SLOTS}::integer limit 1 for update skip locked)
      returning slot
    ), r as (
      insert into reservations ${RESERVATION_COLUMNS}
      select ${reservationValues(v.row, sql`s.slot`)} from s
      returning id
    ), e as (${outboxInsert(v.event, sql`select 1 from r`)})
    select s.slot,
      (select coalesce(sum(free), 0) from reservation_slots where allocation_id = ${v.row.allocation_id})
        - ${v.row.quantity}::integer as free,
      coalesce((select uncarved from reservation_pools where allocation_id = ${v.row.allocation_id}), 0)
        as uncarved
    from s`,
);

/**
 * Database slot store: take the units from the first free slot from `start` that no one else
 * holds (SKIP LOCKED), write the reservation and its `order.reserved`, and read what is left
 * (free in the store, and uncarved), all in one statement. Null when no slot had the units
 * (the caller refills), `'unproven'` when the quote's catalog version moved.
 */
export async function takeAndRecord(
  ex: Executor,
  row: NewRow,
  event: OutboxRow,
  start: number,
  versionToProve: number | null,
): Promise<Taken | null | 'unproven'> {
  const result = await unlessMissed(
    takeAndRecordStatement(
      ex,
      { proving: versionToProve !== null },
      { row, event, version: versionToProve, start },
    ),
  );
  if (!result) return 'unproven';
  const taken = result.rows[0];
  return taken ? { slot: taken.slot, free: Number(taken.free), uncarved: Number(taken.uncarved) } : null;
}

const recordStatement = preparedPerShape(
  (shape: Shape, v: Values & { generation: number }) => sql`
    with r as (
      insert into reservations ${RESERVATION_COLUMNS}
      select ${reservationValues(v.row, sql`null::integer`)} where true${proven(shape, v.version)}
        and (select generation from reservation_pools where allocation_id = ${v.row.allocation_id})
          = ${v.generation}::bigint
      returning id
    )
    ${outboxInsert(v.event, sql`select 1 from r`)} returning 1`,
);

/**
 * Redis store (units already taken there): the reservation and its `order.reserved` in one
 * statement, only while the pool is at the generation of the copy the units came from
 * (redis-slot-store.ts). False when it is not, `'unproven'` when the quote's catalog version
 * moved: in both, nothing was written.
 */
export async function recordReservation(
  ex: Executor,
  row: NewRow,
  event: OutboxRow,
  versionToProve: number | null,
  generation: number,
): Promise<boolean | 'unproven'> {
  const result = await unlessMissed(
    recordStatement(
      ex,
      { proving: versionToProve !== null },
      { row, event, version: versionToProve, generation },
    ),
  );
  if (!result) return 'unproven';
  return result.rows.length === 1;
}

const proveStatement = preparedPerShape(
  (_shape: null, v: { version: number }) =>
    sql<{ current: boolean }>`select ${catalogStillAt(v.version)} as current`,
);

/** The refill's transaction: whether a reservation quoted without reading the version stands (see `proven`). */
export async function catalogStillCurrent(ex: Executor, version: number): Promise<boolean> {
  const { rows } = await proveStatement(ex, null, { version });
  return rows[0]?.current === true;
}
