import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { WebhookAttemptsTable } from './webhooks.table.js';

/** The attempt log of webhook deliveries. */

export type AttemptRow = Selectable<WebhookAttemptsTable>;

export const insertAttempts = (ex: Executor, rows: Insertable<WebhookAttemptsTable>[]) =>
  ex.insertInto('webhook_attempts').values(rows).execute();

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
