import { CliError } from './errors.js';
import { type Session, withRequestId } from './session.js';
import { emit, type Terminal } from './terminal.js';

/** `events resend <eventId> --endpoint ID`: that event again, as a new delivery to the endpoint. */
export async function resendEvent(t: Terminal, s: Session, eventId: string, endpoint: string): Promise<void> {
  const call = s.client.raw.POST('/api/seller/v1/webhooks/{id}/resend', {
    params: { path: { id: endpoint } },
    body: { eventId },
  });
  const { data, requestId } = await withRequestId(s.baseUrl, call);
  const d = data.data;
  emit(
    t,
    { ...d, requestId },
    `Queued ${d.eventId} to endpoint ${d.endpointId} as delivery ${d.deliveryId} (${d.status})  requestId ${requestId}`,
  );
}

/** `events replay --endpoint ID --since T`: every event since T the endpoint failed or never got. */
export async function replayEvents(t: Terminal, s: Session, endpoint: string, since: string): Promise<void> {
  if (Number.isNaN(Date.parse(since)) || !/^\d{4}-\d{2}-\d{2}T/.test(since)) {
    throw new CliError(`--since must be an RFC 3339 time, such as 2026-05-01T00:00:00Z, not ${since}`);
  }
  const call = s.client.raw.POST('/api/seller/v1/webhooks/{id}/replay', {
    params: { path: { id: endpoint } },
    body: { since },
  });
  const { data, requestId } = await withRequestId(s.baseUrl, call);
  const d = data.data;
  emit(
    t,
    { ...d, requestId },
    `Queued ${d.replayed} event(s) since ${d.since} to endpoint ${d.endpointId}${
      d.more ? ' (more remain: run it again with the same --since)' : ''
    }  requestId ${requestId}`,
  );
}
