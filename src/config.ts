import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  ADMIN_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8081 }),
  ADMIN_HOST: Type.String({ default: '127.0.0.1' }),
  SDAPI_SHUTDOWN_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 25 }),
  DATABASE_URL: Type.Optional(Type.String()),
  DATABASE_SCHEMA: Type.Optional(Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$' })),
  DATABASE_DIRECT_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOLER: Type.Union([Type.Literal('none'), Type.Literal('transaction')], { default: 'none' }),
  DATABASE_REPLICA_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_REPLICA_MAX_LAG_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 5000 }),
  DATA_DIR: Type.String({ default: './data' }),
  /** Read by loadEnvFile before this schema; listed so the README's table and the schema agree. */
  SDAPI_ENV_FILE: Type.Optional(Type.String()),
  REDIS_URL: Type.Optional(Type.String()),
  SDAPI_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  SDAPI_MASTER_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  SDAPI_IP_PEPPER: Type.Optional(Type.String({ minLength: 16 })),
  SDAPI_GEOIP_DB: Type.Optional(Type.String({ minLength: 1 })),
  SDAPI_TEST_CLOCK: Type.Boolean({ default: false }),
  SDAPI_TRUST_PROXY: Type.String({ default: 'loopback' }),
  SDAPI_SEED_ON_START: Type.Boolean({ default: true }),
  SDAPI_ALLOW_INSECURE_WEBHOOKS: Type.Boolean({ default: false }),
  SDAPI_DEV_LOOPBACK_ALLOWLIST: Type.Boolean({ default: false }),
  SDAPI_REQUEST_LOG: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  SDAPI_SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://[^\\s]+$' })),
  SDAPI_MAIL_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 200 })),
  NODE_ENV: Type.Optional(Type.String()),
  PUBLIC_URL: Type.Optional(Type.String()),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export type Env = Static<typeof EnvSchema>;

/** Every variable the service reads (the compose file and README document exactly these). */
export const ENV_VARIABLES = Object.keys(EnvSchema.properties) as (keyof Env)[];

export type DatabaseConfig =
  | { engine: 'sqlite'; path: string }
  | { engine: 'postgres'; url: string; schema?: string; pooling?: Pooling };

/**
 * PostgreSQL behind a transaction pooler (PgBouncer `pool_mode = transaction`): `url` reaches
 * the pooler, `directUrl` the server itself, for what needs a session (LISTEN, migrations and
 * their lock, the pre-order walker's lock). docs/operations.md, "Running behind PgBouncer".
 */
export interface Pooling {
  pooler: 'none' | 'transaction';
  directUrl?: string;
}

/** A streaming replica for heavy seller reads (db/replica.ts); PostgreSQL only. */
export interface ReplicaConfig {
  url: string;
  /** Beyond this replay lag (or when it does not answer) reads go to the primary. */
  maxLagMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** The operator listener: /admin/v1, /metrics, /health (loopback by default). */
  adminPort: number;
  adminHost: string;
  /** How long SIGTERM waits for in-flight requests and background work before forcing the exit. */
  shutdownSeconds: number;
  database: DatabaseConfig;
  replica?: ReplicaConfig;
  dataDir: string;
  redisUrl?: string;
  adminToken?: string;
  masterKeyHex?: string;
  ipPepper?: string;
  /** An MMDB country database replacing the bundled one (docs/geo-ip.md). */
  geoIpDb?: string;
  testClock: boolean;
  /** Which peers may set forwarded-for headers: `loopback`, `none`, `all`, or comma-separated CIDRs. */
  trustProxy: string;
  seedOnStart: boolean;
  /** Admits http:// and loopback webhook URLs (development and tests only; docs/events.md). */
  allowInsecureWebhooks: boolean;
  /**
   * Development only: a caller on this machine (loopback peer and loopback client address)
   * passes any key's IP allowlist, so `sdapi seed demo`'s production key works locally.
   * Refused at start with PostgreSQL or NODE_ENV=production (devLoopbackProblem).
   */
  devLoopbackAllowlist: boolean;
  /**
   * Records every seller request in the request log and with it each key's last-used time
   * (docs/console.md); `SDAPI_REQUEST_LOG=off` stops both (docs/operations.md measures the cost).
   */
  requestLog: boolean;
  /**
   * The SMTP server console mail goes through (`smtp://` or `smtps://`, credentials in the URL):
   * invites and disabled-endpoint notices (docs/console.md). Unset: nothing is e-mailed.
   */
  smtpUrl?: string;
  /** The From of that mail; by default `Seller console <console@HOST of PUBLIC_URL>`. */
  mailFrom: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
}

export function databaseConfigFrom(
  url: string | undefined,
  dataDir: string,
  schema?: string,
  pooling?: Pooling,
): DatabaseConfig {
  const pooled = pooling && (pooling.pooler !== 'none' || pooling.directUrl);
  if (!url?.startsWith('postgres') && pooled)
    throw new Error('DATABASE_POOLER and DATABASE_DIRECT_URL apply to PostgreSQL only');
  if (!url) return { engine: 'sqlite', path: `${dataDir}/sdapi.sqlite` };
  if (url.startsWith('sqlite:')) return { engine: 'sqlite', path: url.slice('sqlite:'.length) };
  if (pooling?.pooler === 'transaction' && schema)
    throw new Error(
      'DATABASE_SCHEMA cannot be used with DATABASE_POOLER=transaction (the pooler refuses the search_path start-up option): set the search_path on the role instead (ALTER ROLE … SET search_path) and unset DATABASE_SCHEMA',
    );
  // LISTEN, the migrator's lock and the pre-order walker's lock need a session of their own,
  // which a transaction pooler does not keep: they must have the server's own address.
  if (pooling?.pooler === 'transaction' && !pooling.directUrl)
    throw new Error(
      'DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL: migrations, LISTEN and session locks cannot run through a transaction pooler',
    );
  if (url.startsWith('postgres://') || url.startsWith('postgresql://'))
    return { engine: 'postgres', url, schema, ...(pooled ? { pooling } : {}) };
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${url.split(':')[0]}:)`);
}

/**
 * SDAPI_DEV_LOOPBACK_ALLOWLIST belongs to a developer's machine: a configuration that looks
 * like production (PostgreSQL, or NODE_ENV=production as the Dockerfile sets) cannot start with it.
 */
function devLoopbackProblem(env: Env): string | null {
  if (!env.SDAPI_DEV_LOOPBACK_ALLOWLIST) return null;
  const production = env.NODE_ENV === 'production';
  const postgres = /^postgres(ql)?:/.test(env.DATABASE_URL ?? '');
  if (!production && !postgres) return null;
  return `SDAPI_DEV_LOOPBACK_ALLOWLIST is a development setting (embedded SQLite, NODE_ENV not production); it cannot be used with ${production ? 'NODE_ENV=production' : 'PostgreSQL'}. Unset it.`;
}

/**
 * The server and the operator CLI read their settings the same way: the process environment,
 * over an optional env file (`SDAPI_ENV_FILE`, else `./.env` when it exists). A variable set in
 * the environment wins over the file, so one file can hold an installation's settings and both
 * programs find the same database, port and public address.
 */
export function loadEnvFile(cwd = process.cwd()): string | null {
  const named = process.env.SDAPI_ENV_FILE;
  const path = resolve(cwd, named ?? '.env');
  if (!existsSync(path)) {
    if (named) throw new Error(`SDAPI_ENV_FILE names ${path}, which does not exist`);
    return null;
  }
  process.loadEnvFile(path);
  return path;
}

/** Parses the environment once against its schema; an invalid value stops start-up with a clear message. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const raw = Value.Convert(EnvSchema, Value.Default(EnvSchema, { ...source }));
  const errors = [...Value.Errors(EnvSchema, raw)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1)}: ${e.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = raw as Env;
  const problem = devLoopbackProblem(env);
  if (problem) throw new Error(problem);
  const database = databaseConfigFrom(env.DATABASE_URL, env.DATA_DIR, env.DATABASE_SCHEMA, {
    pooler: env.DATABASE_POOLER,
    directUrl: env.DATABASE_DIRECT_URL,
  });
  if (env.DATABASE_REPLICA_URL && database.engine !== 'postgres')
    throw new Error('DATABASE_REPLICA_URL needs a PostgreSQL DATABASE_URL (a replica of it).');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    port: env.PORT,
    host: env.HOST,
    adminPort: env.ADMIN_PORT,
    adminHost: env.ADMIN_HOST,
    shutdownSeconds: env.SDAPI_SHUTDOWN_SECONDS,
    database,
    replica: env.DATABASE_REPLICA_URL
      ? { url: env.DATABASE_REPLICA_URL, maxLagMs: env.DATABASE_REPLICA_MAX_LAG_MS }
      : undefined,
    dataDir: env.DATA_DIR,
    redisUrl: env.REDIS_URL,
    adminToken: env.SDAPI_ADMIN_TOKEN,
    masterKeyHex: env.SDAPI_MASTER_KEY,
    ipPepper: env.SDAPI_IP_PEPPER,
    geoIpDb: env.SDAPI_GEOIP_DB,
    testClock: env.SDAPI_TEST_CLOCK,
    trustProxy: env.SDAPI_TRUST_PROXY,
    seedOnStart: env.SDAPI_SEED_ON_START,
    allowInsecureWebhooks: env.SDAPI_ALLOW_INSECURE_WEBHOOKS,
    devLoopbackAllowlist: env.SDAPI_DEV_LOOPBACK_ALLOWLIST,
    requestLog: env.SDAPI_REQUEST_LOG === 'on',
    smtpUrl: env.SDAPI_SMTP_URL,
    mailFrom:
      env.SDAPI_MAIL_FROM ??
      `Seller console <console@${URL.canParse(publicUrl) ? new URL(publicUrl).hostname : 'localhost'}>`,
    publicUrl,
    logLevel: env.LOG_LEVEL,
  };
}
