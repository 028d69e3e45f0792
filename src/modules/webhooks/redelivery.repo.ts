import type { Executor } from '../../db/database.js';
import type { Tenant } from './endpoints.repo.js';

/** One event; with a tenant, only if it is that tenant's. */
export function eventOf(ex: Executor, tenant: Tenant | null, eventId: string) {
  let query = ex.selectFrom('outbox_events').selectAll().where('event_id', '=', eventId);
  if (tenant)
    query = query.where('company_id', '=', tenant.companyId).where('environment', '=', tenant.environment);
  return query.executeTakeFirst();
}

/**
 * The tenant's events published, created at or after `fromUs`, that the endpoint has no
 * delivery of pending, held or succeeded, in publication order; `has_failed` says whether a
 * delivery of the event to it failed.
 */
export const notReceivedBy = (ex: Executor, tenant: Tenant, endpointId: string, fromUs: number) =>
  ex
    .selectFrom('outbox_events as o')
    .select([
      'o.event_id',
      'o.company_id',
      'o.environment',
      'o.event_type',
      'o.payload',
      'o.target_endpoint_id',
      'o.published_seq',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('webhook_deliveries as f')
            .select('f.id')
            .whereRef('f.event_id', '=', 'o.event_id')
            .where('f.endpoint_id', '=', endpointId)
            .where('f.status', '=', 'failed'),
        )
        .as('has_failed'),
    )
    .where('o.company_id', '=', tenant.companyId)
    .where('o.environment', '=', tenant.environment)
    .where('o.published_seq', 'is not', null)
    .where('o.created_at_us', '>=', fromUs)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.event_id', '=', 'o.event_id')
            .where('d.endpoint_id', '=', endpointId)
            .where('d.status', 'in', ['pending', 'held', 'succeeded']),
        ),
      ),
    )
    .orderBy('o.published_seq')
    .execute();
