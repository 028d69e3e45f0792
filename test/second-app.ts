import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, SELLER_PREFIX } from '../src/app.js';
import { createContext } from '../src/create-context.js';
import { openDatabase } from '../src/db/database.js';
import { ENGINE, type TestApp } from './harness.js';
import { observeOpenApi } from './openapi-observer.js';

/**
 * On PostgreSQL, a second app on the same database with its own pool and caches, like a second
 * process; null on SQLite (one process). Read it inside tests: it exists after beforeAll.
 */
export function useSecondApp(t: TestApp, options: { poolSize?: number } = {}): () => FastifyInstance | null {
  let second: FastifyInstance | null = null;
  let close = async () => {};
  beforeAll(async () => {
    if (ENGINE !== 'postgres') return;
    const handle = openDatabase(t.config.database, options);
    const ctx = await createContext(t.config, handle);
    const app = await buildApp(ctx);
    // Its replies are held to the seller document as the test app's are.
    const docs = observeOpenApi(app, `${SELLER_PREFIX}/openapi.json`, 'seller');
    await app.ready();
    await docs.ready();
    second = app;
    close = async () => {
      const observed = await Promise.allSettled([docs.finish()]);
      await app.close();
      await ctx.close();
      await handle.close();
      for (const result of observed) if (result.status === 'rejected') throw result.reason;
    };
  });
  afterAll(() => close());
  return () => second;
}

/**
 * Requests alternate between the test app and the second app (its own pool of `poolSize`
 * connections) on PostgreSQL, like two processes; SQLite is one process: always the test app.
 */
export function useAlternatingApps(t: TestApp, poolSize: number): (i: number) => FastifyInstance {
  const secondApp = useSecondApp(t, { poolSize });
  return (i) => {
    const second = secondApp();
    return second && i % 2 === 1 ? second : t.app;
  };
}
