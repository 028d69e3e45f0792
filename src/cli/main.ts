import { parseArgs } from 'node:util';
import { withEmbeddedSecrets } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { type AppContext, createContext } from '../context.js';
import { migrateToLatest, schemaOf } from '../db/migrate.js';
import { fail } from '../http/errors.js';
import { isoOrNull } from '../lib/clock.js';
import { randomToken } from '../lib/crypto.js';
import { mintKey } from '../modules/api-keys/api-keys.service.js';
import { companyView, createCompany } from '../modules/identity/identity.service.js';
import { adminRequest, importKeyFile, seedDemoWorld, seedSandbox } from './commands.js';
import { printFailure, printResult } from './output.js';

const USAGE = `sdapi: operator CLI of the Seller Distribution API (uses DATABASE_URL like the server)

  sdapi migrate
  sdapi company create --name NAME [--kind seller|publisher] [--country CC]
                       [--production-access] [--api-agreement-signed] [--json]
  sdapi key create --company ID --environment sandbox|production [--name NAME]
                   [--scopes a,b] [--allowed-ips ip,cidr] [--expires-at ISO] [--json]
  sdapi seed sandbox            the fixture catalog with every magic SKU (idempotent)
  sdapi seed demo [--allowed-ip IP]
                                a production demo world; prints a production key
  sdapi keys import --pool ID --file PATH [--format lines|csv]
                                streams a key file into a pool, encrypted, with progress
  sdapi admin METHOD PATH [--data JSON]
                                any operator endpoint (/admin/v1/PATH), run in-process
  sdapi webhooks deliveries --company ID [--status pending|failed|succeeded] [--json]
                                a company's webhook deliveries (default: not yet succeeded)
  sdapi webhooks replay --event EVENT_ID --endpoint ENDPOINT_ID
                                delivers one event to one endpoint again
`;

const OPTIONS = {
  name: { type: 'string' },
  kind: { type: 'string' },
  country: { type: 'string' },
  'production-access': { type: 'boolean' },
  'api-agreement-signed': { type: 'boolean' },
  company: { type: 'string' },
  environment: { type: 'string' },
  scopes: { type: 'string' },
  'allowed-ips': { type: 'string' },
  'expires-at': { type: 'string' },
  json: { type: 'boolean' },
  'allowed-ip': { type: 'string' },
  pool: { type: 'string' },
  file: { type: 'string' },
  format: { type: 'string' },
  data: { type: 'string' },
  status: { type: 'string' },
  event: { type: 'string' },
  endpoint: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function required(
  values: Values,
  name: 'name' | 'company' | 'environment' | 'pool' | 'file' | 'event' | 'endpoint',
): string {
  const value = values[name];
  if (!value) throw fail('VALIDATION_FAILED', `--${name} is required.`);
  return value;
}

async function run(ctx: AppContext, positionals: string[], values: Values): Promise<Record<string, unknown>> {
  const command = positionals.slice(0, 2).join(' ');
  if (positionals[0] === 'admin') {
    const [, method, path] = positionals;
    if (!method || !path) throw fail('VALIDATION_FAILED', 'usage: sdapi admin METHOD PATH [--data JSON]');
    return { data: await adminRequest(ctx, method, path, values.data) };
  }
  switch (positionals[0] === 'migrate' ? 'migrate' : command) {
    case 'seed sandbox':
      return await seedSandbox(ctx);
    case 'seed demo':
      return await seedDemoWorld(ctx, values['allowed-ip']);
    case 'keys import':
      return {
        ...(await importKeyFile(ctx, required(values, 'pool'), required(values, 'file'), values.format)),
      };
    case 'webhooks deliveries': {
      const query = new URLSearchParams({ companyId: required(values, 'company'), limit: '100' });
      if (values.status) query.set('status', values.status);
      return deliveryLines(
        await adminRequest(ctx, 'GET', `/webhooks/deliveries?${query}`, undefined),
        values.json,
      );
    }
    case 'webhooks replay':
      return await adminRequest(
        ctx,
        'POST',
        '/webhooks/replay',
        JSON.stringify({ eventId: required(values, 'event'), endpointId: required(values, 'endpoint') }),
      );
    case 'migrate':
      return { applied: await migrateToLatest(ctx.db, schemaOf(ctx.config)) };
    case 'company create': {
      const kind = values.kind ?? 'seller';
      if (kind !== 'seller' && kind !== 'publisher')
        throw fail('VALIDATION_FAILED', '--kind is seller or publisher.');
      const company = await createCompany(ctx, {
        name: required(values, 'name'),
        kind,
        country: values.country?.toUpperCase() ?? null,
        productionAccess: values['production-access'],
        apiAgreementSigned: values['api-agreement-signed'],
      });
      return companyView(company);
    }
    case 'key create': {
      const environment = required(values, 'environment');
      if (environment !== 'sandbox' && environment !== 'production') {
        throw fail('VALIDATION_FAILED', '--environment is sandbox or production.');
      }
      const expiresAt = values['expires-at'] ? Date.parse(values['expires-at']) : null;
      if (Number.isNaN(expiresAt)) throw fail('VALIDATION_FAILED', '--expires-at must be an ISO date-time.');
      const minted = await mintKey(ctx, {
        companyId: required(values, 'company'),
        environment,
        name: values.name ?? `${environment} key`,
        scopes: list(values.scopes),
        allowedIps: list(values['allowed-ips']),
        expiresAt,
      });
      return { ...minted, expiresAt: isoOrNull(minted.expiresAt), createdAt: isoOrNull(minted.createdAt) };
    }
    default:
      throw new Error(`unknown command '${command}'\n\n${USAGE}`);
  }
}

/** One line per delivery for people; the rows themselves with --json. */
function deliveryLines(rows: Record<string, unknown>[], json: boolean | undefined): Record<string, unknown> {
  if (json) return { deliveries: rows };
  if (rows.length === 0) return { deliveries: 'none' };
  return Object.fromEntries(
    rows.map((r) => [
      r.id,
      `${r.status} ${r.eventType} ${r.eventId} -> ${r.endpointUrl} attempts=${r.attempts}` +
        ` next=${r.nextAttemptAt ?? '-'} last=${r.lastStatusCode ?? r.lastError ?? '-'}`,
    ]),
  );
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = withEmbeddedSecrets(loadConfig());
  // The in-process operator client needs a token even where the server's is not configured.
  const ctx = await createContext({
    ...config,
    adminToken: config.adminToken ?? randomToken(24),
    logLevel: 'silent',
  });
  try {
    if (positionals[0] !== 'migrate') await migrateToLatest(ctx.db, schemaOf(ctx.config));
    printResult(await run(ctx, positionals, values), values.json ?? false);
    return 0;
  } catch (err) {
    return printFailure(err);
  } finally {
    await ctx.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
