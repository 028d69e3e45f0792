import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import { decodeCursor, encodeCursor, page } from '../../http/pagination.js';
import { isEventType } from '../events/index.js';
import { type FeedPage, feedPage } from './events-feed.repo.js';
import { microIso, microsOf } from './micro-time.js';

/** Events stay readable at least this long (docs/events.md). */
export const EVENT_RETENTION_DAYS = 30;

export interface FeedQuery {
  cursor?: string;
  since?: string;
  types?: string;
  limit: number;
}

const invalid = (field: string, message: string) =>
  fail('VALIDATION_FAILED', `${field} ${message}`, {
    issues: [{ field, in: 'query', message, keyword: 'format' }],
  });

function parseTypes(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const types = raw
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !isEventType(t));
  if (types.length === 0 || unknown.length > 0)
    throw invalid('types', `names unknown event types: ${unknown.join(', ')}`);
  return types;
}

/**
 * GET /events: the caller's published events in publication (commit) order. `cursor` continues
 * exactly after the last event served; `since` starts at a publication instant (microseconds),
 * and `meta.nextSince` is the instant just after the last event served, so a reader that only
 * keeps `nextSince` neither skips nor repeats an event. An event is listed once it is
 * published, which is after its transaction committed (and after `webhook_delay_30s`).
 */
export async function listEvents(
  ctx: AppContext,
  p: Principal,
  query: FeedQuery,
  urlFor: (c: string) => string,
) {
  const types = parseTypes(query.types);
  let position: Pick<FeedPage, 'afterSeq' | 'sinceUs'> = {};
  if (query.cursor !== undefined)
    position = { afterSeq: decodeCursor(query.cursor, ['number'])[0] as number };
  else if (query.since !== undefined) {
    const since = microsOf(query.since);
    if (since === null) throw invalid('since', 'must be an RFC 3339 date-time');
    position = { sinceUs: since };
  }
  const rows = await feedPage(
    ctx.db,
    { companyId: p.companyId, environment: p.environment },
    { ...position, ...(types ? { types } : {}), limit: query.limit + 1 },
  );
  const result = page(rows, query.limit, (r) => [r.published_seq!], urlFor);
  const last = result.data.at(-1);
  return {
    data: result.data.map((r) => ({
      eventId: r.event_id,
      eventType: r.event_type,
      eventVersion: r.event_version,
      createdAt: microIso(r.created_at_us),
      publishedAt: microIso(r.published_at_us!),
      data: JSON.parse(r.payload) as Record<string, unknown>,
    })),
    meta: {
      ...result.meta,
      // A feed is polled: the position after the last event is worth keeping even on the last page.
      nextCursor: last ? encodeCursor([last.published_seq!]) : (query.cursor ?? null),
      nextSince: last ? microIso(last.published_at_us! + 1) : (query.since ?? null),
    },
  };
}
