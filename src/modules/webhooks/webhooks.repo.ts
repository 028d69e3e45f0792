import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { uuidv7 } from '../../lib/ids.js';
import type {
  DisabledBy,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './webhooks.table.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export interface Tenant {
  companyId: string;
  environment: string;
}

export const insertEndpoint = (ex: Executor, row: Insertable<WebhookEndpointsTable>) =>
  ex.insertInto('webhook_endpoints').values(row).execute();

export const endpointOf = (ex: Executor, tenant: Tenant, id: string) =>
  ex
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .executeTakeFirst();

export const endpointById = (ex: Executor, id: string) =>
  ex.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

export const endpointsOf = (ex: Executor, tenant: Tenant) =>
  ex
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export async function countEndpoints(ex: Executor, tenant: Tenant): Promise<number> {
  const row = await ex
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const updateEndpoint = (ex: Executor, id: string, patch: Updateable<WebhookEndpointsTable>) =>
  ex.updateTable('webhook_endpoints').set(patch).where('id', '=', id).execute();

export const deleteEndpoint = async (ex: Executor, id: string) => {
  await ex.deleteFrom('webhook_attempts').where('endpoint_id', '=', id).execute();
  await ex.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await ex.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
};

/** Every endpoint of the given companies (both states): the publisher fans events out to them. */
export const endpointsOfCompanies = (ex: Executor, companyIds: readonly string[]) =>
  companyIds.length === 0
    ? Promise.resolve([] as EndpointRow[])
    : ex.selectFrom('webhook_endpoints').selectAll().where('company_id', 'in', companyIds).execute();

/**
 * A new delivery of a published event to one endpoint, due now (`held` while the endpoint is
 * disabled); `attemptBase` is the attempts the event's earlier deliveries there made.
 */
export function newDelivery(
  endpoint: { id: string; status: string },
  event: { company_id: string; environment: string; event_id: string; published_seq: number },
  now: number,
  attemptBase = 0,
): Insertable<WebhookDeliveriesTable> {
  const endpointId = endpoint.id;
  return {
    id: uuidv7(now),
    endpoint_id: endpointId,
    company_id: event.company_id,
    environment: event.environment,
    event_id: event.event_id,
    event_order: event.published_seq,
    status: endpoint.status === 'active' ? 'pending' : 'held',
    attempts: 0,
    attempt_base: attemptBase,
    next_attempt_at: now,
    lease_until: 0,
    last_status_code: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

export const insertDeliveries = async (ex: Executor, rows: Insertable<WebhookDeliveriesTable>[]) => {
  for (let i = 0; i < rows.length; i += 500)
    await ex
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 500))
      .execute();
};

export const updateDelivery = (ex: Executor, id: string, patch: Updateable<WebhookDeliveriesTable>) =>
  ex.updateTable('webhook_deliveries').set(patch).where('id', '=', id).execute();

/** A failed attempt's outcome; a delivery superseded meanwhile (by a resend) stays superseded. */
export const recordFailure = (ex: Executor, id: string, patch: Updateable<WebhookDeliveriesTable>) =>
  ex
    .updateTable('webhook_deliveries')
    .set({
      ...patch,
      status: sql<
        WebhookDeliveriesTable['status']
      >`case when status = 'superseded' then status else ${patch.status} end`,
    })
    .where('id', '=', id)
    .execute();

/**
 * Before a resend of an event to an endpoint: its earlier deliveries there that have not
 * finished (pending or held) are superseded, and the attempts they all made (one more for a
 * delivery in flight, whose outcome is still to be written) are where the resend's numbering
 * starts.
 */
export async function supersedeDeliveries(ex: Executor, endpointId: string, eventId: string, now: number) {
  const earlier = await ex
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempt_base', 'attempts', 'lease_until'])
    .where('endpoint_id', '=', endpointId)
    .where('event_id', '=', eventId)
    .execute();
  const open = earlier.filter((d) => d.status === 'pending' || d.status === 'held').map((d) => d.id);
  if (open.length > 0)
    await ex
      .updateTable('webhook_deliveries')
      .set({ status: 'superseded', updated_at: now })
      .where('id', 'in', open)
      .execute();
  return Math.max(
    0,
    ...earlier.map((d) => d.attempt_base + d.attempts + (Number(d.lease_until) > now ? 1 : 0)),
  );
}

/** Per event, the attempts its deliveries to the endpoint made (the next delivery numbers after them). */
export async function attemptsMadeOf(ex: Executor, endpointId: string, eventIds: string[]) {
  const made = new Map<string, number>();
  for (let i = 0; i < eventIds.length; i += 500) {
    const rows = await ex
      .selectFrom('webhook_deliveries')
      .select((eb) => ['event_id', eb.fn.max(sql<number>`attempt_base + attempts`).as('made')])
      .where('endpoint_id', '=', endpointId)
      .where('event_id', 'in', eventIds.slice(i, i + 500))
      .groupBy('event_id')
      .execute();
    for (const row of rows) made.set(row.event_id, Number(row.made));
  }
  return made;
}

export const markSucceeded = (ex: Executor, ids: string[], statusCode: number, now: number) =>
  ex
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'succeeded',
      attempts: eb('attempts', '+', 1),
      lease_until: 0,
      last_status_code: statusCode,
      last_error: null,
      updated_at: now,
    }))
    .where('id', 'in', ids)
    .execute();

export const insertAttempts = (ex: Executor, rows: Insertable<WebhookAttemptsTable>[]) =>
  ex.insertInto('webhook_attempts').values(rows).execute();

/** A success ends a run of failures (no write when there was none). */
export const resetFailures = (ex: Executor, endpointId: string) =>
  ex
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0 })
    .where('id', '=', endpointId)
    .where('consecutive_failures', '<>', 0)
    .execute();

/** Adds `count` failures to the run, or starts a new run of `count` (after a success). */
export const addFailures = (ex: Executor, endpointId: string, count: number, restart: boolean) =>
  ex
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_failures: restart ? count : eb('consecutive_failures', '+', count) }))
    .where('id', '=', endpointId)
    .returning(['consecutive_failures', 'status', 'url', 'company_id', 'environment'])
    .executeTakeFirst();

/**
 * Active to disabled, and its deliveries waiting for an attempt held until enable; false when
 * another worker moved it first.
 */
export async function disableEndpoint(
  ex: Executor,
  endpointId: string,
  reason: string,
  now: number,
  by: DisabledBy = 'breaker',
) {
  const moved = await ex
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, disabled_at: now, disabled_by: by, updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await ex
    .updateTable('webhook_deliveries')
    .set({ status: 'held', updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
  return true;
}

export interface AttemptFilter {
  /** `succeeded`: a 2xx answer; `failed`: any other answer or none. */
  outcome?: 'succeeded' | 'failed';
  eventType?: string;
}

/**
 * The attempt log of one endpoint, newest first, after a keyset position; `retry_planned` says
 * whether the attempt's next retry is still what its delivery waits for (its latest attempt, the
 * delivery pending), not overtaken by a later attempt, a resend or a final outcome.
 */
export function attemptsOf(
  ex: Executor,
  endpointId: string,
  filter: AttemptFilter,
  beforeSeq: number | undefined,
  limit: number,
) {
  let query = ex
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .selectAll('a')
    .select(
      sql<boolean>`(d.status = 'pending' and d.attempt_base + d.attempts = a.attempt)`.as('retry_planned'),
    )
    .where('a.endpoint_id', '=', endpointId);
  if (filter.eventType !== undefined) query = query.where('a.event_type', '=', filter.eventType);
  if (filter.outcome === 'succeeded')
    query = query.where('a.status_code', '>=', 200).where('a.status_code', '<', 300);
  if (filter.outcome === 'failed')
    query = query.where((eb) =>
      eb.or([eb('a.status_code', 'is', null), eb('a.status_code', '<', 200), eb('a.status_code', '>=', 300)]),
    );
  if (beforeSeq !== undefined) query = query.where('a.seq', '<', beforeSeq);
  return query.orderBy('a.seq', 'desc').limit(limit).execute();
}

/**
 * On enable: the endpoint's held deliveries (and any still pending, such as one published in
 * the instant of the disable) become pending and due now; claimed oldest event first.
 */
export const releaseHeld = (ex: Executor, endpointId: string, now: number) =>
  ex
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['pending', 'held'])
    .execute();

/**
 * The tenant's endpoints with what their health needs, in one statement: per endpoint its last
 * successful attempt (newest first on the (endpoint_id, seq) index) and its deliveries awaiting
 * delivery (pending or held) and given up (failed), counted on the (endpoint_id, status) index.
 */
export function endpointHealthOf(ex: Executor, tenant: Tenant) {
  return ex
    .selectFrom('webhook_endpoints as e')
    .select(['e.id', 'e.url', 'e.status', 'e.disabled_reason', 'e.disabled_at', 'e.consecutive_failures'])
    .select((eb) => [
      eb
        .selectFrom('webhook_attempts as a')
        .select('a.attempted_at')
        .whereRef('a.endpoint_id', '=', 'e.id')
        .where('a.status_code', '>=', 200)
        .where('a.status_code', '<', 300)
        .orderBy('a.seq', 'desc')
        .limit(1)
        .as('last_success_at'),
      eb
        .selectFrom('webhook_deliveries as p')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('p.endpoint_id', '=', 'e.id')
        .where('p.status', 'in', ['pending', 'held'])
        .as('pending_count'),
      eb
        .selectFrom('webhook_deliveries as f')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('f.endpoint_id', '=', 'e.id')
        .where('f.status', '=', 'failed')
        .as('failed_count'),
    ])
    .where('e.company_id', '=', tenant.companyId)
    .where('e.environment', '=', tenant.environment)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
}

/** A delivery claimed by a process for sending: what the sender and the attempt recorder read. */
export interface Claimed {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  attempt_base: number;
  next_attempt_at: number;
  event_order: number;
}

/**
 * Whether one day's partitions of the outbox and of its deliveries (named) hold anything still
 * needed: an event not yet published or published at or after `sinceUs` (the newest published
 * is the last in publication order), or a delivery still waiting (pending or held). Each look
 * reads a partial or ordered index of the day, not the day's rows.
 */
export async function dayStillNeeded(ex: Executor, events: string, deliveries: string, sinceUs: number) {
  const { rows } = await sql<{ needed: boolean }>`select
    exists (select 1 from ${sql.id(events)} where published_seq is null)
    or coalesce((select published_at_us from ${sql.id(events)} where published_seq is not null
      order by published_seq desc limit 1), 0) >= ${sinceUs}
    or exists (select 1 from ${sql.id(deliveries)} where status = 'pending')
    or exists (select 1 from ${sql.id(deliveries)} where status = 'held') as needed`.execute(ex);
  return rows[0]?.needed === true;
}
