import type { AppContext } from '../../context.js';
import { decodeCursor, page } from '../../http/pagination.js';
import { deliveriesOfCompany } from './deliveries.repo.js';
import type { DeliveryStatus } from './webhooks.table.js';

export interface DeliveryQuery {
  companyId: string;
  /** Omitted: every delivery not yet succeeded (pending, held or failed). */
  status?: DeliveryStatus;
  cursor?: string;
  limit: number;
}

/** The operator's view of a company's deliveries, most recently changed first. */
export async function listDeliveries(ctx: AppContext, query: DeliveryQuery, urlFor: (c: string) => string) {
  const rows = await deliveriesOfCompany(ctx.db, {
    companyId: query.companyId,
    status: query.status,
    after:
      query.cursor === undefined
        ? undefined
        : (decodeCursor(query.cursor, ['number', 'string']) as [number, string]),
    limit: query.limit + 1,
  });
  const now = ctx.clock.now();
  const result = page(rows, query.limit, (r) => [r.updated_at, r.id], urlFor);
  return {
    data: result.data.map((r) => ({
      id: r.id,
      endpointId: r.endpoint_id,
      endpointUrl: r.url,
      endpointStatus: r.endpoint_status,
      environment: r.environment,
      eventId: r.event_id,
      eventType: r.event_type,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.status === 'pending' ? new Date(r.next_attempt_at).toISOString() : null,
      leasedUntil: r.lease_until > now ? new Date(r.lease_until).toISOString() : null,
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      updatedAt: new Date(r.updated_at).toISOString(),
    })),
    meta: result.meta,
  };
}
