import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import { decodeCursor, page } from '../../http/pagination.js';
import { uuidv7 } from '../../lib/ids.js';
import { auditActorOf, recordAudit } from '../audit/index.js';
import {
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  type EventData,
  type EventType,
  emit,
  exampleEnvelope,
  isEventType,
} from '../events/index.js';
import * as attemptsRepo from './attempts.repo.js';
import * as endpointsRepo from './endpoints.repo.js';
import { ATTEMPT_BODY_RETENTION_MS } from './retention.service.js';
import { newWebhookSecret } from './signing.js';
import { checkWebhookUrl } from './webhook-url.js';

/** Endpoints per company and environment (docs/events.md). */
export const MAX_ENDPOINTS = 16;
/** How long the secret replaced by a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const tenantOf = (p: Principal): endpointsRepo.Tenant => ({
  companyId: p.companyId,
  environment: p.environment,
});

function boxOf(ctx: AppContext) {
  if (!ctx.secrets)
    throw fail(
      'SERVICE_UNAVAILABLE',
      'SDAPI_MASTER_KEY is not configured; webhook secrets cannot be stored.',
    );
  return ctx.secrets;
}

/** `["*"]` or omitted means every type; an unknown type is refused by name. */
function checkEventTypes(types: readonly string[] | undefined): string[] {
  if (types === undefined || (types.length === 1 && types[0] === '*')) return ['*'];
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length > 0 || types.length === 0) {
    const message =
      types.length === 0
        ? 'eventTypes must name at least one type.'
        : `Unknown event type ${unknown.join(', ')}.`;
    throw fail('VALIDATION_FAILED', message, {
      issues: [{ field: 'eventTypes', in: 'body', message, keyword: 'enum' }],
      knownTypes: EVENT_TYPE_NAMES,
    });
  }
  return [...new Set(types)];
}

export function endpointView(row: endpointsRepo.EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    eventTypes: JSON.parse(row.event_types) as string[],
    description: row.description,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at === null ? null : new Date(row.disabled_at).toISOString(),
    disabledBy: row.disabled_by,
  };
}

/** Endpoint and secret changes land in the company's audit log, from the console or the API alike. */
const audit = (
  ctx: AppContext,
  trx: Executor,
  p: Principal,
  action: string,
  endpointId: string,
  detail?: Record<string, unknown>,
) =>
  recordAudit(
    ctx,
    {
      companyId: p.companyId,
      ...auditActorOf(p),
      action,
      target: endpointId,
      detail: { environment: p.environment, ...detail },
    },
    trx,
  );

/** The URL as the audit log keeps it: no query or credentials (a receiver may put a token there). */
const auditedUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
};

async function requireEndpoint(ex: Executor, p: Principal, id: string) {
  const row = await endpointsRepo.endpointOf(ex, tenantOf(p), id);
  if (!row) throw fail('NOT_FOUND', `Webhook endpoint ${id} not found.`);
  return row;
}

export async function createEndpoint(
  ctx: AppContext,
  p: Principal,
  body: { url: string; eventTypes?: string[]; description?: string },
) {
  const url = checkWebhookUrl(body.url, ctx.config.allowInsecureWebhooks);
  const eventTypes = checkEventTypes(body.eventTypes);
  const secret = newWebhookSecret();
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await ctx.db.transaction().execute(async (trx) => {
    if ((await endpointsRepo.countEndpoints(trx, tenantOf(p))) >= MAX_ENDPOINTS)
      throw fail(
        'VALIDATION_FAILED',
        `A company may have at most ${MAX_ENDPOINTS} webhook endpoints per environment.`,
        {
          limit: MAX_ENDPOINTS,
        },
      );
    await endpointsRepo.insertEndpoint(trx, {
      id,
      company_id: p.companyId,
      environment: p.environment,
      url,
      description: body.description ?? null,
      event_types: JSON.stringify(eventTypes),
      status: 'active',
      secret_sealed: boxOf(ctx).seal(secret),
      previous_secret_sealed: null,
      previous_secret_until: null,
      consecutive_failures: 0,
      disabled_reason: null,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
    await audit(ctx, trx, p, 'webhook.created', id, { url: auditedUrl(url), eventTypes });
  });
  const view = endpointView((await endpointsRepo.endpointById(ctx.db, id))!);
  const { url: u, eventTypes: t, description, createdAt } = view;
  return { id, url: u, eventTypes: t, description, status: 'active' as const, secret, createdAt };
}

export async function listEndpoints(ctx: AppContext, p: Principal) {
  return (await endpointsRepo.endpointsOf(ctx.db, tenantOf(p))).map(endpointView);
}

export async function updateEndpoint(
  ctx: AppContext,
  p: Principal,
  id: string,
  body: { url?: string; eventTypes?: string[]; description?: string | null; rotateSecret?: boolean },
) {
  const now = ctx.clock.now();
  let secret: string | undefined;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await requireEndpoint(trx, p, id);
    const patch: Parameters<typeof endpointsRepo.updateEndpoint>[2] = { updated_at: now };
    if (body.url !== undefined) patch.url = checkWebhookUrl(body.url, ctx.config.allowInsecureWebhooks);
    if (body.eventTypes !== undefined) patch.event_types = JSON.stringify(checkEventTypes(body.eventTypes));
    if (body.description !== undefined) patch.description = body.description;
    if (body.rotateSecret) {
      secret = newWebhookSecret();
      patch.secret_sealed = boxOf(ctx).seal(secret);
      patch.previous_secret_sealed = row.secret_sealed;
      patch.previous_secret_until = now + ROTATION_OVERLAP_MS;
    }
    await endpointsRepo.updateEndpoint(trx, id, patch);
    const changed = (['url', 'eventTypes', 'description'] as const).filter((f) => body[f] !== undefined);
    if (changed.length > 0) await audit(ctx, trx, p, 'webhook.updated', id, { changed });
    if (body.rotateSecret) await audit(ctx, trx, p, 'webhook.secret_rotated', id);
  });
  const view = endpointView((await endpointsRepo.endpointById(ctx.db, id))!);
  return secret === undefined ? view : { ...view, secret };
}

export async function deleteEndpoint(ctx: AppContext, p: Principal, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await requireEndpoint(trx, p, id);
    await endpointsRepo.deleteEndpoint(trx, id);
    await audit(ctx, trx, p, 'webhook.deleted', id, { url: auditedUrl(row.url) });
  });
}

/** The types a test send may take: `test.ping` and every type an endpoint can subscribe to. */
export const TESTABLE_TYPES = EVENT_TYPE_NAMES.filter(
  (type) => type === 'test.ping' || EVENT_TYPES[type].audience !== 'endpoint',
);

function testTypeOf(eventType: string | undefined): EventType {
  if (eventType === undefined) return 'test.ping';
  if (isEventType(eventType) && TESTABLE_TYPES.includes(eventType)) return eventType;
  const message = `Unknown event type ${eventType}.`;
  throw fail('VALIDATION_FAILED', message, {
    issues: [{ field: 'eventType', in: 'body', message, keyword: 'enum' }],
    knownTypes: TESTABLE_TYPES,
  });
}

/**
 * Enqueues a test send for this endpoint alone: `test.ping` by default, or any event type with
 * its example payload. A test is the endpoint's own event (never listed by GET /events, never
 * sent elsewhere), and its outcomes neither count toward the circuit breaker nor reset it.
 */
export async function testEndpoint(
  ctx: AppContext,
  p: Principal,
  id: string,
  body: { eventType?: string } = {},
) {
  const eventType = testTypeOf(body.eventType);
  const data =
    eventType === 'test.ping'
      ? { ok: true as const, webhookId: id }
      : (exampleEnvelope(eventType).data as EventData<typeof eventType>);
  return ctx.db.transaction().execute(async (trx) => {
    await requireEndpoint(trx, p, id);
    const [eventId] = await emit(ctx, trx, [tenantOf(p)], eventType, data, { targetEndpointId: id });
    return { eventId: eventId!, eventType };
  });
}

/** The reason a paused endpoint shows (the breaker's reasons name failures instead). */
export const PAUSED_REASON = 'Paused by the seller';

/**
 * Active to disabled by the seller (a pause): nothing is sent to it, its deliveries wait `held`
 * and new events keep being queued for it, until enable sends them, oldest first. An endpoint
 * already disabled (paused, or by the breaker) stays as it is.
 */
export async function pauseEndpoint(ctx: AppContext, p: Principal, id: string) {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await requireEndpoint(trx, p, id);
    if (await endpointsRepo.disableEndpoint(trx, id, PAUSED_REASON, now, 'seller'))
      await audit(ctx, trx, p, 'webhook.paused', id);
  });
  return endpointView((await endpointsRepo.endpointById(ctx.db, id))!);
}

/** Disabled to active: failures forgotten, held deliveries due now, oldest event first. */
export async function enableEndpoint(ctx: AppContext, p: Principal, id: string) {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await requireEndpoint(trx, p, id);
    if (row.status === 'active') return;
    await endpointsRepo.updateEndpoint(trx, id, {
      status: 'active',
      consecutive_failures: 0,
      disabled_reason: null,
      disabled_at: null,
      disabled_by: null,
      updated_at: now,
    });
    await endpointsRepo.releaseHeld(trx, id, now);
    await audit(ctx, trx, p, 'webhook.enabled', id);
  });
  return endpointView((await endpointsRepo.endpointById(ctx.db, id))!);
}

/**
 * One attempt as the logs show it. `nextRetryAt` only while that retry is still planned (the
 * delivery's latest attempt, the delivery pending); `responseBody` only within the request
 * log's retention, the trim job's bound, so a read never shows a body it should have cleared.
 */
export function attemptView(row: attemptsRepo.AttemptRow, retryPlanned: boolean, now: number) {
  return {
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: row.attempt,
    statusCode: row.status_code,
    error: row.error,
    responseBody: row.attempted_at > now - ATTEMPT_BODY_RETENTION_MS ? row.response_body : null,
    durationMs: row.duration_ms,
    attemptedAt: new Date(row.attempted_at).toISOString(),
    nextRetryAt:
      retryPlanned && row.next_retry_at !== null ? new Date(row.next_retry_at).toISOString() : null,
  };
}

/** The attempt log of one endpoint, newest first, filtered by outcome and event type. */
export async function listAttempts(
  ctx: AppContext,
  p: Principal,
  id: string,
  query: { cursor?: string; limit: number; status?: 'succeeded' | 'failed'; eventType?: string },
  urlFor: (cursor: string) => string,
) {
  await requireEndpoint(ctx.db, p, id);
  const before =
    query.cursor === undefined ? undefined : (decodeCursor(query.cursor, ['number'])[0] as number);
  const filter = { outcome: query.status, eventType: query.eventType };
  const rows = await attemptsRepo.attemptsOf(ctx.db, id, filter, before, query.limit + 1);
  const result = page(rows, query.limit, (r) => [r.seq], urlFor);
  const now = ctx.clock.now();
  return {
    data: result.data.map((r) => attemptView(r, Boolean(r.retry_planned), now)),
    meta: result.meta,
  };
}
