import { microIso } from './micro-time.js';

/** What an event's stored row holds for its webhook envelope. */
export interface EnvelopeSource {
  event_id: string;
  event_type: string;
  event_version: number;
  payload: string;
  created_at_us: number;
}

/**
 * The body of every webhook of an event, byte for byte what is signed and sent: the stored
 * payload is spliced in as written, never re-serialized. Payloads carry ids and counts only
 * (src/modules/events/event-types.ts), never a key or token.
 */
export function envelopeBody(event: EnvelopeSource): string {
  return `{"eventId":${JSON.stringify(event.event_id)},"eventType":${JSON.stringify(event.event_type)},"eventVersion":${event.event_version},"createdAt":"${microIso(event.created_at_us)}","data":${event.payload}}`;
}
