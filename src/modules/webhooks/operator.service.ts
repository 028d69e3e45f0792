import type { AppContext } from '../../context.js';
import { decodeCursor, page } from '../../http/pagination.js';
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
  let q = ctx.db
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
    .where('d.company_id', '=', query.companyId);
  q = query.status ? q.where('d.status', '=', query.status) : q.where('d.status', '<>', 'succeeded');
  if (query.cursor !== undefined) {
    const [updatedAt, id] = decodeCursor(query.cursor, ['number', 'string']) as [number, string];
    q = q.where((eb) =>
      eb.or([
        eb('d.updated_at', '<', updatedAt),
        eb.and([eb('d.updated_at', '=', updatedAt), eb('d.id', '<', id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('d.updated_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(query.limit + 1)
    .execute();
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
