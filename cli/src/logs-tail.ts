import { ApiError } from '@sdapi/sdk';
import { UnreachableError } from './errors.js';
import { type Session, withRequestId } from './session.js';
import { sleep } from './sleep.js';
import { colours, emit, notice, statusColour, type Terminal } from './terminal.js';

type Entry = {
  requestId: string;
  at: string;
  keyId: string;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  durationMs: number;
};
type Filters = { status?: string; code?: string; keyId?: string };

export interface TailOptions {
  session: Session;
  terminal: Terminal;
  filters: Filters;
  limit: number;
  follow: boolean;
  intervalMs: number;
  signal: AbortSignal;
}

/**
 * `logs tail`: the newest requests, oldest first, then every newer one as it is logged. The log
 * is newest first, so each look reads from the last time seen (`since`, inclusive) down, page by
 * page, and drops the rows already printed and the tail's own requests.
 */
export async function tailLogs(o: TailOptions): Promise<void> {
  const own = new Set<string>();
  const printed = new Set<string>();
  const paint = colours(o.terminal.out, o.terminal.env);
  const fetchPage = async (query: Record<string, string | number>) => {
    const call = o.session.client.raw.GET('/api/seller/v1/request-logs', { params: { query } });
    const r = await withRequestId(o.session.baseUrl, call);
    own.add(r.requestId);
    if (own.size > 100) own.delete(own.values().next().value as string);
    return r.data as { data: Entry[]; meta: { nextCursor: string | null } };
  };
  const print = (e: Entry) => {
    printed.add(e.requestId);
    const status = paint(statusColour(e.status), String(e.status));
    emit(
      o.terminal,
      e,
      `${e.at.replace('T', ' ').slice(0, 23)}  ${e.method.padEnd(6)} ${e.path}  ${status} ${e.durationMs} ms  ${e.requestId}${e.errorCode ? `  ${paint('red', e.errorCode)}` : ''}`,
    );
  };
  const filters = Object.fromEntries(Object.entries(o.filters).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const first = await fetchPage({ ...filters, limit: o.limit });
  first.data.reverse().forEach(print);
  let since = first.data.at(-1)?.at ?? new Date(Date.now() - 1000).toISOString();
  while (o.follow && !o.signal.aborted) {
    await sleep(o.intervalMs, o.signal);
    if (o.signal.aborted) break;
    try {
      const fresh: Entry[] = [];
      let cursor: string | null = null;
      do {
        const page = await fetchPage({ ...filters, since, limit: 200, ...(cursor ? { cursor } : {}) });
        fresh.push(...page.data);
        cursor = page.meta.nextCursor;
      } while (cursor);
      for (const e of fresh.reverse()) if (!printed.has(e.requestId) && !own.has(e.requestId)) print(e);
      since = fresh.at(-1)?.at ?? since;
      // Only rows at exactly `since` can come back (it is inclusive): forget the others.
      for (const e of fresh) if (e.at !== since) printed.delete(e.requestId);
    } catch (error) {
      if (!(error instanceof UnreachableError || (error instanceof ApiError && error.status >= 429)))
        throw error;
      notice(o.terminal, `The service did not answer GET /request-logs: trying again in ${o.intervalMs} ms.`);
    }
  }
}
