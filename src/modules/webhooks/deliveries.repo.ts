import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import type { Claimed } from './delivery-writes.repo.js';
import type { Tenant } from './endpoints.repo.js';
import type { DeliveryStatus } from './webhooks.table.js';

export interface CompanyDeliveriesPage {
  companyId: string;
  /** Omitted: every delivery not yet succeeded (pending, held or failed). */
  status?: DeliveryStatus;
  /** The keyset position to continue after: (updated_at, id) of the last row served. */
  after?: [updatedAt: number, id: string];
  limit: number;
}

/** A company's deliveries with their endpoint and event type, most recently changed first. */
export function deliveriesOfCompany(ex: Executor, page: CompanyDeliveriesPage) {
  let q = ex
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('outbox_events as o', 'o.event_id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'e.url',
      'e.status as endpoint_status',
      'd.environment',
      'd.event_id',
      'o.event_type',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.lease_until',
      'd.last_status_code',
      'd.last_error',
      'd.updated_at',
    ])
    .where('d.company_id', '=', page.companyId);
  q = page.status ? q.where('d.status', '=', page.status) : q.where('d.status', '<>', 'succeeded');
  if (page.after !== undefined) {
    const [updatedAt, id] = page.after;
    q = q.where((eb) =>
      eb.or([
        eb('d.updated_at', '<', updatedAt),
        eb.and([eb('d.updated_at', '=', updatedAt), eb('d.id', '<', id)]),
      ]),
    );
  }
  return q.orderBy('d.updated_at', 'desc').orderBy('d.id', 'desc').limit(page.limit).execute();
}

/**
 * Claims up to `limit` due deliveries to active endpoints (none to the `saturated` ones) under a
 * lease until `leaseUntil`, due first, then oldest event first. On PostgreSQL the claimed rows
 * are locked with SKIP LOCKED, so processes never claim the same row; SQLite has one writer.
 */
export async function claimDueDeliveries(
  ex: Executor,
  now: number,
  leaseUntil: number,
  limit: number,
  saturated: string[],
): Promise<Claimed[]> {
  const skip = saturated.length > 0 ? sql`and d.endpoint_id not in (${sql.join(saturated)})` : sql``;
  const lock = isPostgres(ex) ? sql`for update of d skip locked` : sql``;
  const result = await sql<Claimed>`update webhook_deliveries set lease_until = ${leaseUntil}
      where id in (
        select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= ${now} and d.lease_until <= ${now}
          and e.status = 'active' ${skip}
        order by d.next_attempt_at, d.event_order limit ${limit} ${lock})
      returning id, endpoint_id, event_id, attempts, attempt_base, next_attempt_at, event_order`.execute(ex);
  // RETURNING keeps no order: due first, then oldest event first (an endpoint's flush order).
  return result.rows
    .map((r) => ({ ...r, next_attempt_at: Number(r.next_attempt_at), event_order: Number(r.event_order) }))
    .sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.event_order - b.event_order);
}

/** Gives claimed deliveries back (their lease ends now): any worker may claim them again. */
export const releaseClaims = (ex: Executor, ids: string[]) =>
  ex.updateTable('webhook_deliveries').set({ lease_until: 0 }).where('id', 'in', ids).execute();

/** What a send of these events needs (its envelope, and whether it is a test send). */
export const eventsToSend = (ex: Executor, eventIds: string[]) =>
  ex
    .selectFrom('outbox_events')
    .select(['event_id', 'event_type', 'event_version', 'payload', 'created_at_us', 'target_endpoint_id'])
    .where('event_id', 'in', eventIds)
    .execute();

export const endpointsByIds = (ex: Executor, ids: string[]) =>
  ex.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute();

/** One event of the tenant, as its deliveries page shows it. */
export const tenantEventOf = (ex: Executor, tenant: Tenant, eventId: string) =>
  ex
    .selectFrom('outbox_events')
    .select(['event_id', 'event_type', 'event_version', 'payload', 'created_at_us', 'published_at_us'])
    .where('event_id', '=', eventId)
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .executeTakeFirst();

/** The tenant's endpoints, oldest first: id, address and state. */
export const endpointSummariesOf = (ex: Executor, tenant: Tenant) =>
  ex
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'status'])
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** Every delivery of one event of the tenant (a resend adds one), oldest first. */
export const deliveriesOfEvent = (ex: Executor, tenant: Tenant, eventId: string) =>
  ex
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** The attempts of these deliveries, oldest first. */
export const attemptsOfDeliveries = (ex: Executor, deliveryIds: string[]) =>
  ex
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('seq')
    .execute();
