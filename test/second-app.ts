import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { openDatabase } from '../src/db/database.js';
import { ENGINE, type TestApp } from './harness.js';

/**
 * On PostgreSQL a second app (its own pool of `poolSize` connections and its own caches)
 * shares the test app's database, like a second process; `appFor(i)` alternates between the
 * two. SQLite is one process: `appFor` is always the test app.
 */
export function useSecondApp(t: TestApp, poolSize: number) {
  let second: FastifyInstance | null = null;
  let closeSecond = async () => {};
  beforeAll(async () => {
    if (ENGINE !== 'postgres') return;
    const handle = openDatabase(t.config.database, { poolSize });
    const ctx = await createContext(t.config, handle);
    second = await buildApp(ctx);
    await second.ready();
    closeSecond = async () => {
      await second?.close();
      await ctx.close();
      await handle.close();
    };
  });
  afterAll(() => closeSecond());
  return (i: number) => (second && i % 2 === 1 ? second : t.app);
}
