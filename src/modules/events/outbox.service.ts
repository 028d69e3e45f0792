import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './events.repo.js';
import type { CatalogChangeType, ChangedField } from './events.table.js';

export const EVENT_VERSION = 1;

export interface Recipient {
  companyId: string;
  environment: string;
}

/** Microsecond timestamps that never repeat or go backwards within this process. */
let lastMicros = 0;
function nowMicros(nowMs: number): number {
  const candidate = nowMs * 1000;
  lastMicros = candidate > lastMicros ? candidate : lastMicros + 1;
  return lastMicros;
}

/** One event to write: its type, payload and recipients. */
export interface PendingEvent {
  recipients: readonly Recipient[];
  eventType: string;
  data: Record<string, unknown>;
}

/**
 * Writes events to the outbox inside the caller's transaction (rule 2 of DESIGN): they exist
 * exactly when the change that caused them commits; the delivery worker sends them later.
 */
export async function emitEvents(
  ctx: AppContext,
  trx: Executor,
  recipients: readonly Recipient[],
  eventType: string,
  data: Record<string, unknown>,
  options: { deliverAfterMs?: number } = {},
): Promise<void> {
  await emitEventList(ctx, trx, [{ recipients, eventType, data }], options);
}

/** Several events of one change in one insert, in the order given (the order path's outbox write). */
export async function emitEventList(
  ctx: AppContext,
  trx: Executor,
  events: readonly PendingEvent[],
  options: { deliverAfterMs?: number } = {},
): Promise<void> {
  const now = ctx.clock.now();
  await repo.insertEvents(
    trx,
    events.flatMap(({ recipients, eventType, data }) =>
      recipients.map((r) => ({
        event_id: `evt_${uuidv7(now).replaceAll('-', '')}`,
        company_id: r.companyId,
        environment: r.environment,
        event_type: eventType,
        event_version: EVENT_VERSION,
        payload: JSON.stringify(data),
        created_at_us: nowMicros(now),
        deliver_after: options.deliverAfterMs ?? now,
      })),
    ),
  );
}

/** One catalog change row (SPEC 2.5) per seller that sees the product. */
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
