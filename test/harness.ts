import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildAdminApp } from '../src/admin-app.js';
import type { App } from '../src/app.js';
import { ADMIN_PREFIX, buildApp, SELLER_PREFIX } from '../src/app.js';
import { type Config, type DatabaseConfig, databaseConfigFrom, loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { createContext } from '../src/create-context.js';
import { type DbHandle, openDatabase } from '../src/db/database.js';
import { migrateOnSession } from '../src/db/migrate.js';
import { randomBase32 } from '../src/lib/ids.js';
import { observeConsoleResponses } from './console-response-check.js';
import { observeOpenApi } from './openapi-observer.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** The engine under test: DATABASE_URL (postgres://...) or embedded SQLite in memory. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL;
export const ENGINE = TEST_DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite';
/**
 * A PgBouncer in transaction pooling in front of DATABASE_URL's server (scripts/with-pgbouncer.ts):
 * each test file then gets a database of its own, which the app reaches through the pooler and
 * migrates on DATABASE_URL's server directly (the pooler refuses the search_path start-up option
 * a schema per file needs).
 */
const TEST_PGBOUNCER_URL = process.env.TEST_PGBOUNCER_URL;

export interface TestApp {
  /**
   * The seller application. Its `inject` also reaches the operator application for paths under
   * /admin/v1 (and /metrics, /health), so tests call both through one handle as the CLI does
   * in-process; that the seller port itself never serves them is proven over real sockets
   * (src/observability/listeners.test.ts).
   */
  app: App;
  /** The operator application (ADMIN_PORT): /admin/v1, /metrics, /health/live, /health/ready. */
  adminApp: App;
  ctx: AppContext;
  config: Config;
  handle: DbHandle;
  close(): Promise<void>;
}

/** A fresh PostgreSQL schema for one test file, dropped afterwards. */
async function createPgSchema(url: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `t_${randomBase32(12)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/** A fresh database for one test file on DATABASE_URL's server, reached through the pooler; dropped afterwards. */
export async function createPooledDatabase(
  url: string,
  poolerUrl: string,
  dataDir: string,
): Promise<{ database: DatabaseConfig; drop(): Promise<void> }> {
  const name = `t_${randomBase32(12)}`;
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await onServer(`create database ${name}`);
  const at = (base: string) => Object.assign(new URL(base), { pathname: `/${name}` }).href;
  return {
    database: databaseConfigFrom(at(poolerUrl), dataDir, undefined, {
      pooler: 'transaction',
      directUrl: at(url),
    }),
    // The pooler still holds server connections to it: they end with the database.
    drop: () => onServer(`drop database if exists ${name} with (force)`),
  };
}

/** The environment a server process needs to reach a test app's PostgreSQL database as the app does. */
export function databaseEnvOf(database: DatabaseConfig): Record<string, string> {
  if (database.engine !== 'postgres') throw new Error('server processes share a PostgreSQL database only');
  return {
    DATABASE_URL: database.url,
    ...(database.schema ? { DATABASE_SCHEMA: database.schema } : {}),
    ...(database.pooling ? { DATABASE_POOLER: database.pooling.pooler } : {}),
    ...(database.pooling?.directUrl ? { DATABASE_DIRECT_URL: database.pooling.directUrl } : {}),
  };
}

/** `extraRoutes` lets a test mount a probe route (before the app is sealed) to exercise shared hooks. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  extraRoutes?: (app: App) => void,
): Promise<TestApp> {
  const base = loadConfig({
    SDAPI_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    SDAPI_TEST_CLOCK: 'true',
    PORT: '8080',
  });
  let dropSchema = async () => {};
  let database = databaseConfigFrom('sqlite::memory:', base.dataDir);
  // `overrides.database` shares another app's database (two processes on one store): its owner drops it.
  if (ENGINE === 'postgres' && TEST_DATABASE_URL && TEST_PGBOUNCER_URL && !overrides.database) {
    const created = await createPooledDatabase(TEST_DATABASE_URL, TEST_PGBOUNCER_URL, base.dataDir);
    database = created.database;
    dropSchema = created.drop;
  } else if (ENGINE === 'postgres' && TEST_DATABASE_URL && !overrides.database) {
    const created = await createPgSchema(TEST_DATABASE_URL);
    database = databaseConfigFrom(TEST_DATABASE_URL, base.dataDir, created.schema);
    dropSchema = created.drop;
  }
  const config: Config = {
    ...base,
    database,
    masterKeyHex: '11'.repeat(32),
    ipPepper: 'test-pepper-0123456789',
    ...overrides,
  };
  const handle = openDatabase(config.database);
  await migrateOnSession({ db: handle.db, config });
  const ctx = await createContext(config, handle);
  const sellerApp = await buildApp(ctx);
  extraRoutes?.(sellerApp);
  const sellerDocs = observeOpenApi(sellerApp, `${SELLER_PREFIX}/openapi.json`, 'seller');
  const consoleAnswers = observeConsoleResponses(sellerApp);
  await sellerApp.ready();
  const adminApp = await buildAdminApp(ctx);
  const adminDocs = observeOpenApi(adminApp, `${ADMIN_PREFIX}/openapi.json`, 'admin');
  await adminApp.ready();
  await Promise.all([sellerDocs.ready(), adminDocs.ready()]);
  return {
    app: injectingBoth(sellerApp, adminApp),
    adminApp,
    ctx,
    config,
    handle,
    async close() {
      // Every error a documented route answered in this file must be listed by its document.
      // Every console answer must be exactly what its route's response schema says.
      const observed = await Promise.allSettled([
        sellerDocs.finish(),
        adminDocs.finish(),
        Promise.resolve().then(() => consoleAnswers.finish()),
      ]);
      await sellerApp.close();
      await adminApp.close();
      await ctx.close();
      await handle.close();
      await dropSchema();
      for (const result of observed) if (result.status === 'rejected') throw result.reason;
    },
  };
}

const OPERATOR_PATHS = [ADMIN_PREFIX, '/metrics', '/health/'];

function isOperatorPath(options: unknown): boolean {
  const url = typeof options === 'string' ? options : (options as { url?: unknown; path?: unknown })?.url;
  const path = typeof url === 'string' ? url : ((options as { path?: unknown })?.path ?? '');
  return typeof path === 'string' && OPERATOR_PATHS.some((prefix) => path.startsWith(prefix));
}

/** The seller app, whose `inject` hands operator paths to the operator app (see TestApp.app). */
function injectingBoth(seller: App, operator: App): App {
  return new Proxy(seller, {
    get(target, prop, receiver) {
      if (prop === 'inject') {
        return (options: InjectOptions | string) =>
          isOperatorPath(options) ? operator.inject(options) : target.inject(options);
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** One app per test file; each test makes its own companies and keys. */
export function useTestApp(overrides: Partial<Config> = {}, extraRoutes?: (app: App) => void): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    Object.assign(holder, await createTestApp(overrides, extraRoutes));
  });
  afterAll(async () => {
    await holder.close?.();
  });
  return new Proxy(holder, {
    get(target, prop) {
      if (!(prop in target)) throw new Error(`test app not ready: ${String(prop)} read outside a test`);
      return target[prop as keyof TestApp];
    },
  });
}
