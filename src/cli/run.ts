import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, loadConfig, loadEnvFile } from '../config.js';
import type { AppContext } from '../context.js';
import { createContext } from '../create-context.js';
import { migrateOnSession } from '../db/migrate.js';
import { withEmbeddedSecrets } from '../embedded-secrets.js';
import { fail } from '../http/errors.js';
import { randomToken } from '../lib/crypto.js';
import {
  type AdminRoutes,
  companyRoutes,
  listRoutes,
  requestRoutes,
  webhookRoutes,
} from '../modules/operator/route-loaders.js';
import { operatorCall } from './operator-call.js';
import type { Values } from './options.js';
import { printFailure, printList, printResult } from './output.js';

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function required(
  values: Values,
  name:
    | 'name'
    | 'company'
    | 'environment'
    | 'pool'
    | 'file'
    | 'event'
    | 'endpoint'
    | 'email'
    | 'role'
    | 'reason',
): string {
  const value = values[name];
  if (!value) throw fail('VALIDATION_FAILED', `--${name} is required.`);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `requests approve|decline REQUEST_ID`: the id is the third word. */
function requestIdOf(positionals: string[]): string {
  const id = positionals[2];
  if (!id || !UUID.test(id))
    throw fail('VALIDATION_FAILED', 'usage: sdapi requests approve|decline REQUEST_ID');
  return id;
}

/** `--quantity N`: a whole number of keys, or left to the request's. */
function quantityOf(values: Values): number | undefined {
  if (values.quantity === undefined) return undefined;
  const n = Number(values.quantity);
  if (!Number.isInteger(n) || n < 1)
    throw fail('VALIDATION_FAILED', '--quantity must be a whole number >= 1.');
  return n;
}

/**
 * The list commands: the admin list endpoint each reads, the query its options make, and the
 * admin routes that serve it (the generic lists unless named).
 */
const LISTS: Record<
  string,
  (values: Values) => {
    path: string;
    query: Record<string, string | undefined>;
    routes?: () => Promise<AdminRoutes>;
  }
> = {
  'companies list': (v) => ({
    path: '/companies',
    query: { kind: v.kind, country: v.country?.toUpperCase() },
  }),
  'pools list': (v) => ({
    path: '/pools',
    query: {
      environment: v.environment,
      ...(v.sku && UUID.test(v.sku) ? { skuId: v.sku } : { skuCode: v.sku }),
    },
  }),
  'allocations list': (v) => ({
    path: `/companies/${encodeURIComponent(required(v, 'company'))}/allocations`,
    query: { environment: v.environment, status: v.status },
  }),
  'keys list': (v) => ({
    path: `/companies/${encodeURIComponent(required(v, 'company'))}/keys`,
    query: { environment: v.environment, includeRevoked: v['include-revoked'] ? 'true' : undefined },
  }),
  'requests list': (v) => ({
    path: '/allocation-requests',
    query: { status: v.status, companyId: v.company, environment: v.environment },
  }),
  'webhooks deliveries': (v) => ({
    path: '/webhooks/deliveries',
    query: { companyId: required(v, 'company'), status: v.status },
    routes: webhookRoutes,
  }),
};

async function run(ctx: AppContext, command: string, positionals: string[], values: Values) {
  const lister = LISTS[command];
  if (lister) {
    const { path, query, routes = listRoutes } = lister(values);
    const register = await routes();
    const reply = await operatorCall(ctx, (admin) => register(admin, ctx), {
      method: 'GET',
      path,
      query: { ...query, limit: values.limit, cursor: values.cursor },
    });
    return printList(command, reply, values.json ?? false);
  }
  switch (command) {
    case 'admin': {
      const [, method, path] = positionals;
      if (!method || !path) throw fail('VALIDATION_FAILED', 'usage: sdapi admin METHOD PATH [--data JSON]');
      const { registerAdminApi } = await import('../admin-app.js');
      const reply = await operatorCall(ctx, (admin) => registerAdminApi(admin, ctx), {
        method,
        path,
        payload: values.data,
      });
      return printResult({ data: reply.data, ...(reply.meta ? { meta: reply.meta } : {}) }, values.json);
    }
    // Seeding and key import load their modules only when asked for (a list starts faster).
    case 'seed sandbox': {
      const { seedSandbox } = await import('./seeding.js');
      return printResult(await seedSandbox(ctx), values.json);
    }
    case 'seed demo': {
      const { seedDemoWorld } = await import('./seeding.js');
      return printResult(await seedDemoWorld(ctx, values['allowed-ip']), values.json);
    }
    case 'keys import': {
      const { importKeyFile } = await import('./key-file.js');
      const summary = await importKeyFile(
        ctx,
        required(values, 'pool'),
        required(values, 'file'),
        values.format,
      );
      return printResult({ ...summary }, values.json);
    }
    case 'webhooks replay': {
      const register = await webhookRoutes();
      const reply = await operatorCall(ctx, (admin) => register(admin, ctx), {
        method: 'POST',
        path: '/webhooks/replay',
        payload: JSON.stringify({
          eventId: required(values, 'event'),
          endpointId: required(values, 'endpoint'),
        }),
      });
      return printResult(reply.data as Record<string, unknown>, values.json);
    }
    case 'requests approve':
    case 'requests decline': {
      const register = await requestRoutes();
      const approve = command === 'requests approve';
      const reply = await operatorCall(ctx, (admin) => register(admin, ctx), {
        method: 'POST',
        path: `/allocation-requests/${requestIdOf(positionals)}/${approve ? 'approve' : 'decline'}`,
        payload: JSON.stringify(
          approve
            ? { approvedQuantity: quantityOf(values), reason: values.reason }
            : { reason: required(values, 'reason') },
        ),
      });
      return printResult(reply.data as Record<string, unknown>, values.json);
    }
    case 'migrate': {
      const applied = await migrateOnSession(ctx);
      if (values.json) return printResult({ applied }, true);
      process.stdout.write(
        applied.length === 0
          ? 'Database up to date: no migration to apply.\n'
          : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}\n`,
      );
      return;
    }
    case 'company create': {
      const register = await companyRoutes();
      const reply = await operatorCall(ctx, (admin) => register(admin, ctx), {
        method: 'POST',
        path: '/companies',
        payload: JSON.stringify({
          name: required(values, 'name'),
          kind: values.kind,
          country: values.country?.toUpperCase(),
          productionAccess: values['production-access'],
          apiAgreementSigned: values['api-agreement-signed'],
        }),
      });
      return printResult(reply.data as Record<string, unknown>, values.json);
    }
    case 'users invite': {
      const { inviteUser } = await import('../modules/console/index.js');
      const invite = await inviteUser(ctx, {
        companyId: required(values, 'company'),
        email: required(values, 'email'),
        role: required(values, 'role'),
        invitedBy: 'operator',
        source: 'cli',
      });
      return printResult(invite, values.json);
    }
    case 'key create': {
      const register = await companyRoutes();
      const reply = await operatorCall(ctx, (admin) => register(admin, ctx), {
        method: 'POST',
        path: `/companies/${encodeURIComponent(required(values, 'company'))}/keys`,
        payload: JSON.stringify({
          environment: required(values, 'environment'),
          name: values.name,
          scopes: list(values.scopes),
          allowedIps: list(values['allowed-ips']),
          expiresAt: values['expires-at'],
        }),
      });
      return printResult(reply.data as Record<string, unknown>, values.json);
    }
  }
  throw new Error(`no handler for '${command}'`);
}

/** The commands that may be the first on a new installation; every other one needs its database. */
const MAY_CREATE_DATABASE = new Set(['migrate', 'company create', 'seed sandbox', 'seed demo']);

/**
 * An embedded database that does not exist yet means the CLI is not looking where the server
 * keeps its data: creating an empty one would answer "does not exist" to everything asked.
 */
function missingDatabase(config: Config, command: string): string | null {
  const { database } = config;
  if (database.engine !== 'sqlite' || database.path === ':memory:' || MAY_CREATE_DATABASE.has(command))
    return null;
  if (existsSync(database.path)) return null;
  return [
    `sdapi: there is no database at ${resolve(database.path)}.`,
    "The CLI finds the server's database as the server does: DATABASE_URL, else DATA_DIR (default ./data),",
    'from the environment or a .env file in the working directory (SDAPI_ENV_FILE names another).',
    'Run it with the settings the server was started with, or create a database with `sdapi migrate`.',
  ].join('\n');
}

/** Runs one parsed command against the database DATABASE_URL names; the exit status. */
export async function runCommand(command: string, positionals: string[], values: Values): Promise<number> {
  let settings: Config;
  try {
    loadEnvFile();
    settings = loadConfig();
  } catch (err) {
    return printFailure(err);
  }
  const missing = missingDatabase(settings, command);
  if (missing) {
    process.stderr.write(`${missing}\n`);
    return 1;
  }
  const config = withEmbeddedSecrets(settings);
  // The in-process operator client needs a token even where the server's is not configured.
  const ctx = await createContext({
    ...config,
    adminToken: config.adminToken ?? randomToken(24),
    logLevel: 'silent',
  });
  try {
    if (command !== 'migrate') await migrateOnSession(ctx);
    await run(ctx, command, positionals, values);
    return 0;
  } catch (err) {
    return printFailure(err);
  } finally {
    await ctx.close();
  }
}
