import { parseArgs } from 'node:util';
import { nearestCommand } from './nearest.js';
import { OPTIONS, type Option, type Values } from './options.js';

// Only the argument parser is loaded up front: `sdapi --help` and a mistyped option answer
// without loading the service; a command loads what it needs (run.ts).

export const USAGE = `sdapi: operator CLI of the Seller Distribution API (uses DATABASE_URL like the server)

  sdapi migrate
  sdapi company create --name NAME [--kind seller|publisher] [--country CC]
                       [--production-access] [--api-agreement-signed] [--json]
  sdapi key create --company ID --environment sandbox|production [--name NAME]
                   [--scopes a,b] [--allowed-ips ip,cidr] [--expires-at ISO] [--json]
  sdapi companies list [--kind seller|publisher] [--country CC]
  sdapi pools list [--sku ID|CODE] [--environment sandbox|production]
  sdapi allocations list --company ID [--environment E] [--status active|paused|revoked]
  sdapi keys list --company ID [--environment E] [--include-revoked]
                                a company's API keys (never the token)
  sdapi requests list [--status pending|approved|rejected] [--company ID] [--environment E]
                                sellers' allocation increase requests
  sdapi requests approve REQUEST_ID [--quantity N] [--reason TEXT]
                                grows the grant by N (default: the quantity requested)
  sdapi requests decline REQUEST_ID --reason TEXT
                                the seller sees the reason on GET /allocations/requests
      every list: [--limit 1-200] [--cursor C] [--json]; newest first, the next page's
      --cursor is printed under the table
  sdapi seed sandbox            the fixture catalog with every magic SKU (idempotent)
  sdapi seed demo [--allowed-ip IP]
                                a production demo world; prints a production key
  sdapi keys import --pool ID --file PATH [--format lines|csv]
                                streams a key file into a pool, encrypted, with progress
  sdapi admin METHOD PATH [--data JSON]
                                any operator endpoint (/admin/v1/PATH), run in-process
  sdapi webhooks deliveries --company ID [--status pending|held|failed|succeeded]
                                a company's webhook deliveries (default: not yet succeeded)
  sdapi webhooks replay --event EVENT_ID --endpoint ENDPOINT_ID
                                delivers one event to one endpoint again
  sdapi users invite --company ID --email EMAIL --role owner|developer|finance|viewer [--json]
                                a one-time console invite link, valid 72 h
`;

const LIST: Option[] = ['limit', 'cursor', 'json'];

/** Each command and the options it takes; any other option is a mistake, answered with the usage. */
export const COMMANDS: Record<string, Option[]> = {
  migrate: ['json'],
  'company create': ['name', 'kind', 'country', 'production-access', 'api-agreement-signed', 'json'],
  'key create': ['company', 'environment', 'name', 'scopes', 'allowed-ips', 'expires-at', 'json'],
  'companies list': ['kind', 'country', ...LIST],
  'pools list': ['sku', 'environment', ...LIST],
  'allocations list': ['company', 'environment', 'status', ...LIST],
  'keys list': ['company', 'environment', 'include-revoked', ...LIST],
  'requests list': ['status', 'company', 'environment', ...LIST],
  'requests approve': ['quantity', 'reason', 'json'],
  'requests decline': ['reason', 'json'],
  'seed sandbox': ['json'],
  'seed demo': ['allowed-ip', 'json'],
  'keys import': ['pool', 'file', 'format', 'json'],
  admin: ['data', 'json'],
  'webhooks deliveries': ['company', 'status', ...LIST],
  'webhooks replay': ['event', 'endpoint', 'json'],
  'users invite': ['company', 'email', 'role', 'json'],
};

/** A usage mistake: one line naming it, then the usage, exit status 2. */
function mistake(message: string): number {
  process.stderr.write(`sdapi: ${message}\n\n${USAGE}`);
  return 2;
}

/** An unknown command: what was typed, the nearest command when one is close, where the list is. */
function unknownCommand(positionals: string[]): number {
  const typed = positionals.slice(0, 2).join(' ');
  const nearest = nearestCommand(typed, Object.keys(COMMANDS));
  process.stderr.write(
    `sdapi: unknown command '${typed}'${nearest ? `. Did you mean 'sdapi ${nearest}'?` : ''}\n` +
      'Run sdapi --help for every command.\n',
  );
  return 2;
}

export function commandOf(positionals: string[]): string {
  if (positionals[0] === 'migrate' || positionals[0] === 'admin') return positionals[0];
  return positionals.slice(0, 2).join(' ');
}

async function main(argv: string[]): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (err) {
    // Node's message explains positional escaping at length: its first sentence is the mistake.
    const message = err instanceof Error ? err.message : String(err);
    return mistake(message.split(/(?<=\.) /)[0] ?? message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return 0;
  }
  const command = commandOf(positionals);
  const allowed = COMMANDS[command];
  if (!allowed) return unknownCommand(positionals);
  const stray = (Object.keys(values) as Option[]).find((name) => !allowed.includes(name));
  if (stray) return mistake(`'${command}' takes no --${stray}`);
  const { runCommand } = await import('./run.js');
  return runCommand(command, positionals, values);
}

process.exitCode = await main(process.argv.slice(2));
