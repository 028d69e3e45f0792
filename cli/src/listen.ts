import { ApiError } from '@sdapi/sdk';
import { isNetworkError } from './errors.js';
import { type FeedEvent, forwardEvent } from './forwarder.js';
import { justAfter, type ListenState } from './listen-state.js';
import { localSecretOf } from './local-secret.js';
import type { Session } from './session.js';
import { sleep } from './sleep.js';
import { colours, emit, notice, statusColour, type Terminal } from './terminal.js';

export interface ListenOptions {
  session: Session;
  forwardTo: string;
  types?: string[];
  from: 'now' | 'last';
  /** Wait between two looks at an idle feed. */
  intervalMs: number;
  state: ListenState;
  terminal: Terminal;
  /** Aborted by Ctrl-C: the in-flight forward is abandoned (sent again on --from last). */
  signal: AbortSignal;
  /** Longest wait between two tries of an event the handler did not take (default 5 s). */
  maxRetryDelayMs?: number;
}

const PAGE = 100;
/** `--from now` looks this far before the service's own time, then walks to the end. */
const NOW_MARGIN_MS = 5_000;

type Page = { data: FeedEvent[]; meta: { nextSince: string | null } };

async function page(o: ListenOptions, since: string, limit = PAGE) {
  const query = { since, limit, ...(o.types ? { types: o.types.join(',') } : {}) };
  return (await o.session.client.GET('/api/seller/v1/events', { params: { query } })) as Page;
}

/** The feed position just after the newest event published before now (by the service's clock). */
async function endOfFeed(o: ListenOptions): Promise<string> {
  const probe = await o.session.client.raw.GET('/api/seller/v1/events', { params: { query: { limit: 1 } } });
  if (!probe.response.ok) throw ApiError.from(probe.response, probe.error);
  const serviceNow = Date.parse(probe.response.headers.get('date') ?? '') || Date.now();
  let since = new Date(serviceNow - NOW_MARGIN_MS).toISOString();
  for (;;) {
    const p = await page(o, since);
    if (p.data.length === 0) return since;
    since = p.meta.nextSince ?? justAfter(p.data.at(-1)!.publishedAt);
    if (p.data.length < PAGE) return since;
  }
}

async function startingPoint(o: ListenOptions): Promise<string> {
  if (o.from === 'last') {
    const saved = o.state.read();
    if (saved) {
      notice(o.terminal, `Resuming after ${saved.lastEventId} (saved ${saved.savedAt}).`);
      return saved.since;
    }
    notice(o.terminal, `No saved position for this key in ${o.state.file}: starting from now.`);
  }
  return endOfFeed(o);
}

const isTransient = (error: unknown) =>
  isNetworkError(error) ||
  (error instanceof ApiError && (error.status === 429 || error.status >= 500)) ||
  (error instanceof Error && error.name === 'TimeoutError');

/** Forwards every new event, in publication order, until the signal aborts. */
export async function listen(o: ListenOptions): Promise<{ forwarded: number }> {
  const t = o.terminal;
  const paint = colours(t.out, t.env);
  const secret = localSecretOf(o.session.apiKey);
  let since = await startingPoint(o);
  emit(
    t,
    { type: 'ready', forwardTo: o.forwardTo, secret, since, events: o.types ?? ['*'] },
    `Ready. Forwarding ${o.types ? o.types.join(', ') : 'all'} events of this ${o.session.environment} key to ${o.forwardTo}\n` +
      `Local signing secret: ${paint('bold', secret)} (the same on every run with this key)\n` +
      'Ctrl-C to stop.',
  );
  let forwarded = 0;
  let lastEventId: string | null = null;
  let serviceFailures = 0;
  while (!o.signal.aborted) {
    let p: Page;
    try {
      p = await page(o, since);
      serviceFailures = 0;
    } catch (error) {
      if (o.signal.aborted) break;
      if (!isTransient(error)) throw error;
      const delay = Math.min(5_000, 500 * 2 ** serviceFailures++);
      notice(
        t,
        `The service did not answer GET /events (${error instanceof Error ? error.message : error}): trying again in ${delay} ms.`,
      );
      await sleep(delay, o.signal);
      continue;
    }
    for (const event of p.data) {
      const result = await forwardEvent(event, {
        url: o.forwardTo,
        secret,
        signal: o.signal,
        maxDelayMs: o.maxRetryDelayMs,
        onRetry: (reason, attempt, delay) =>
          notice(
            t,
            `${o.forwardTo}: ${reason}; ${event.eventId} again in ${delay} ms (attempt ${attempt + 1}).`,
          ),
      });
      if (!result) break;
      since = justAfter(event.publishedAt);
      o.state.save({ lastEventId: event.eventId, since });
      lastEventId = event.eventId;
      forwarded += 1;
      const at = new Date().toISOString();
      emit(
        t,
        {
          type: 'forwarded',
          at,
          eventType: event.eventType,
          eventId: event.eventId,
          createdAt: event.createdAt,
          ...result,
        },
        `${at.replace('T', ' ').slice(0, 19)}  ${event.eventType.padEnd(24)} ${event.eventId}  -> ${paint(
          statusColour(result.status),
          String(result.status),
        )} in ${result.durationMs} ms${result.attempts > 1 ? ` (attempt ${result.attempts})` : ''}`,
      );
    }
    if (p.data.length < PAGE) await sleep(o.intervalMs, o.signal);
  }
  notice(
    t,
    lastEventId
      ? `Stopped after forwarding ${forwarded} event(s); --from last resumes after ${lastEventId}.`
      : 'Stopped; nothing forwarded in this run.',
  );
  return { forwarded };
}
