/**
 * The events module's front door: what other modules may use. Writers add events to the outbox
 * inside their own transaction; readers take the event catalogue, its examples and the feeds.
 */

export { exampleEnvelope } from './event-examples.js';
export {
  assertPayload,
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  type EventData,
  type EventType,
  isEventType,
} from './event-types.js';
export { allocationEvents, catalogChangesOf } from './events.repo.js';
export type { ChangedField } from './events.table.js';
export {
  announceEventsWritten,
  emit,
  emitEventList,
  ensureEventDays,
  newEventId,
  type OutboxRow,
  onEventsWritten,
  outboxRowsOf,
  type PendingEvent,
  type Recipient,
  recordCatalogChange,
} from './outbox.service.js';
