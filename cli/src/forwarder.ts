import { signedHeaders } from './local-secret.js';
import { sleep } from './sleep.js';

/** One event as GET /events lists it. */
export interface FeedEvent {
  eventId: string;
  eventType: string;
  eventVersion: number;
  createdAt: string;
  publishedAt: string;
  data: Record<string, unknown>;
}

export interface ForwardResult {
  status: number;
  durationMs: number;
  /** Attempts made, the answered one included. */
  attempts: number;
}

export interface ForwardOptions {
  url: string;
  secret: string;
  signal: AbortSignal;
  /** Told before each wait: why the last attempt failed and how long until the next. */
  onRetry: (reason: string, attempt: number, delayMs: number) => void;
  timeoutMs?: number;
  maxDelayMs?: number;
}

/** The handler is not there (or not ready): these answers are retried like a refused connection. */
const DOWN_STATUSES = new Set([502, 503, 504]);

/** The body a real delivery carries: the envelope, without the feed's `publishedAt`. */
export const deliveryBody = (e: FeedEvent): string =>
  JSON.stringify({
    eventId: e.eventId,
    eventType: e.eventType,
    eventVersion: e.eventVersion,
    createdAt: e.createdAt,
    data: e.data,
  });

const reasonOf = (error: unknown): string => {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: string }).code;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
};

/**
 * POSTs one event, signed now, until the handler answers. A refused connection, a timeout or a
 * 502/503/504 waits (250 ms doubling to `maxDelayMs`) and tries again, freshly signed; any other
 * status is the handler's answer. Answers null when stopped (Ctrl-C) before an answer came.
 */
export async function forwardEvent(event: FeedEvent, options: ForwardOptions): Promise<ForwardResult | null> {
  const body = deliveryBody(event);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  for (let attempt = 1; !options.signal.aborted; attempt++) {
    const started = performance.now();
    let failure: string;
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'sdapi-seller-listen/0.1',
          ...signedHeaders(options.secret, event.eventId, Math.floor(Date.now() / 1000), body),
        },
        body,
        signal: AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.arrayBuffer();
      const durationMs = Math.round(performance.now() - started);
      if (!DOWN_STATUSES.has(response.status))
        return { status: response.status, durationMs, attempts: attempt };
      failure = `answered ${response.status}`;
    } catch (error) {
      if (options.signal.aborted) return null;
      failure = reasonOf(error);
    }
    const delay = Math.min(maxDelayMs, 250 * 2 ** (attempt - 1));
    options.onRetry(failure, attempt, delay);
    await sleep(delay, options.signal);
  }
  return null;
}
