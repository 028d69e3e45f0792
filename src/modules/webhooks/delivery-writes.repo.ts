import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { uuidv7 } from '../../lib/ids.js';
import type { WebhookDeliveriesTable } from './webhooks.table.js';

/** Writes of webhook deliveries: new ones, their outcomes, and a resend's numbering. */

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

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
