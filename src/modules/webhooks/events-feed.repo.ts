import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Tenant } from './endpoints.repo.js';

export interface FeedPage {
  /** Continue after this `published_seq`; else from `sinceUs` (a publication instant); else from the first. */
  afterSeq?: number;
  sinceUs?: number;
  types?: string[];
  limit: number;
}

/** The tenant's published events in publication order, from a position (GET /events). */
export function feedPage(ex: Executor, tenant: Tenant, page: FeedPage) {
  let q = ex
    .selectFrom('outbox_events')
    .select([
      'published_seq',
      'published_at_us',
      'event_id',
      'event_type',
      'event_version',
      'payload',
      'created_at_us',
    ])
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .where('published_seq', 'is not', null)
    // A typed test send carries example ids: one endpoint's, never the company's events. A
    // test.ping is listed, as it always was.
    .where((eb) =>
      eb.or([eb('target_endpoint_id', 'is', null), eb('event_type', '=', sql.lit('test.ping'))]),
    );
  if (page.afterSeq !== undefined) q = q.where('published_seq', '>', page.afterSeq);
  else if (page.sinceUs !== undefined) q = q.where('published_at_us', '>=', page.sinceUs);
  if (page.types) q = q.where('event_type', 'in', page.types);
  return q.orderBy('published_seq').limit(page.limit).execute();
}
