import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { sessionUrlOf } from '../db/database.js';
import type { JobRunner } from './runner.js';

export const JOBS_CHANNEL = 'sdapi_jobs';
/** Between attempts to connect again: the jobs resume within this long of the database's return. */
const RECONNECT_MS = 200;

/**
 * LISTEN on `sdapi_jobs` (PostgreSQL): a NOTIFY, sent at commit by whatever made work for
 * every process (published deliveries, a release out, imported keys), wakes the named job in
 * this process. Never from a hot path: transactions that notify commit one at a time. A lost
 * connection only costs promptness (the jobs still run on their idle interval): it connects
 * again every RECONNECT_MS until the database answers, LISTENs again and wakes every job (work
 * may have been notified while it was away). LISTEN needs a session: DATABASE_DIRECT_URL's.
 */
export function listenForWakeups(config: DatabaseConfig, runner: JobRunner): { close(): Promise<void> } {
  if (config.engine !== 'postgres') return { close: async () => {} };
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: sessionUrlOf(config) });
    c.on('notification', (message) => runner.wake(message.payload || undefined));
    c.on('error', () => reconnect(c));
    c.on('end', () => reconnect(c));
    try {
      await c.connect();
      await c.query(`listen ${JOBS_CHANNEL}`);
      if (closed) return void c.end().catch(() => {});
      client = c;
      runner.wake();
    } catch {
      reconnect(c);
    }
  };
  // Once per lost connection: its 'error' and 'end' both report it.
  const lost = new WeakSet<pg.Client>();
  const reconnect = (c: pg.Client) => {
    if (lost.has(c)) return;
    lost.add(c);
    c.end().catch(() => {});
    if (client === c) client = null;
    if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS);
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
