import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { ensureDays, eventIdTime } from '../../db/day-partitions.js';
import { nowMicros, uuidv7 } from '../../lib/ids.js';
import { assertPayload, EVENT_TYPES, type EventData, type EventType } from './event-types.js';
import * as repo from './events.repo.js';
import type { CatalogChangeType, ChangedField } from './events.table.js';

export interface Recipient {
  companyId: string;
  environment: string;
}

export interface EmitOptions {
  /** Epoch ms before which the event is neither delivered nor listed (`webhook_delay_30s`). */
  deliverAfterMs?: number;
  /** Delivers to this webhook endpoint alone (audience `endpoint`, `test.ping`). */
  targetEndpointId?: string;
}

/** One event to write: a catalog type, its exact payload and its recipients. */
export type PendingEvent = {
  [T in EventType]: { recipients: readonly Recipient[]; eventType: T; data: EventData<T> };
}[EventType];

export const newEventId = (now: number) => `evt_${uuidv7(now).replaceAll('-', '')}`;

/**
 * Writes one event per recipient to the outbox inside the caller's transaction, so that the
 * events exist exactly when the change that caused them commits; the webhooks module
 * publishes and delivers them later. Only catalog types (event-types.ts) with their exact
 * payload are accepted. Returns the event ids, in recipient order.
 */
export async function emit<T extends EventType>(
  ctx: AppContext,
  trx: Executor,
  recipients: readonly Recipient[],
  eventType: T,
  data: EventData<T>,
  options: EmitOptions = {},
): Promise<string[]> {
  return emitEventList(ctx, trx, [{ recipients, eventType, data } as PendingEvent], options);
}

/** Several events of one change in one insert, in the order given (the order path's outbox write). */
export async function emitEventList(
  ctx: AppContext,
  trx: Executor,
  events: readonly PendingEvent[],
  options: EmitOptions = {},
): Promise<string[]> {
  const rows = outboxRowsOf(ctx, events, options);
  await ensureEventDays(
    ctx,
    rows.map((r) => r.event_id),
  );
  await repo.insertEvents(trx, rows);
  return rows.map((r) => r.event_id);
}

/**
 * Where the outbox is partitioned by the day of the event id (PostgreSQL, db/day-partitions.ts),
 * every writer of outbox rows makes sure their days exist before its insert (a lookup in memory
 * once the upkeep made them); on plain tables `ensureDays` has nothing to do.
 */
export async function ensureEventDays(ctx: AppContext, eventIds: readonly string[]) {
  await ensureDays(ctx.db, 'outbox_events', eventIds.map(eventIdTime));
}

const writtenListeners = new WeakMap<AppContext, () => void>();

/**
 * Calls `listener` whenever this process is about to write outbox rows (the webhooks publish
 * job: publish soon), until the returned function is called. It runs before the rows commit,
 * or even if they never do: the listener looks for them shortly after, it cannot assume they
 * are there.
 */
export function onEventsWritten(ctx: AppContext, listener: () => void): () => void {
  writtenListeners.set(ctx, listener);
  return () => {
    if (writtenListeners.get(ctx) === listener) writtenListeners.delete(ctx);
  };
}

/** Every writer of outbox rows calls this as it builds them (`outboxRowsOf`, the order's fast path). */
export function announceEventsWritten(ctx: AppContext): void {
  writtenListeners.get(ctx)?.();
}

/**
 * The outbox rows of catalog-checked events, for a hot path that writes them inside one
 * statement of its own (hot-drop admission on PostgreSQL) instead of through `emit`.
 */
export function outboxRowsOf(ctx: AppContext, events: readonly PendingEvent[], options: EmitOptions = {}) {
  const now = ctx.clock.now();
  announceEventsWritten(ctx);
  return events.flatMap(({ recipients, eventType, data }) => {
    if (recipients.length === 0) return [];
    assertPayload(eventType, data);
    const payload = JSON.stringify(data);
    return recipients.map((r) => ({
      event_id: newEventId(now),
      company_id: r.companyId,
      environment: r.environment,
      event_type: eventType,
      event_version: EVENT_TYPES[eventType].version,
      payload,
      created_at_us: nowMicros(now),
      deliver_after: options.deliverAfterMs ?? now,
      target_endpoint_id: options.targetEndpointId ?? null,
    }));
  });
}
export type OutboxRow = ReturnType<typeof outboxRowsOf>[number];

/** One catalog change row (GET /catalog/changes) per seller that sees the product. */
export async function recordCatalogChange(
  ctx: AppContext,
  trx: Executor,
  recipients: readonly Recipient[],
  productId: string,
  type: CatalogChangeType,
  changedFields: readonly ChangedField[],
): Promise<void> {
  const occurredAt = ctx.clock.now();
  await repo.insertCatalogChanges(
    trx,
    recipients.map((r) => ({
      seller_company_id: r.companyId,
      environment: r.environment,
      product_id: productId,
      type,
      changed_fields: JSON.stringify(changedFields),
      occurred_at: occurredAt,
    })),
  );
}
