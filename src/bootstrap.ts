import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { mintKey } from './modules/api-keys/index.js';
import { createCompany, findFirstSellerNamed, isEmptyInstallation } from './modules/companies/index.js';
import { listUsers } from './modules/console/index.js';

const DEMO_SELLER_NAME = 'Demo Seller';

/** On an empty installation: a demo seller with a sandbox key holding every scope, printed once. */
export async function createDemoSellerIfEmpty(
  ctx: AppContext,
): Promise<{ token: string; companyId: string } | null> {
  if (!(await isEmptyInstallation(ctx))) return null;
  const company = await createCompany(ctx, { name: DEMO_SELLER_NAME, country: 'US' }, ctx.db);
  const key = await mintKey(
    ctx,
    { companyId: company.id, environment: 'sandbox', name: 'demo sandbox key' },
    ctx.db,
  );
  return { token: key.key, companyId: company.id };
}

export function demoKeyBanner(
  { token, companyId }: { token: string; companyId: string },
  config: Config,
): string {
  const url = `http://localhost:${config.port}/api/seller/v1/whoami`;
  return (
    [
      '',
      `A demo seller company was created (id ${companyId}) with a sandbox key holding every scope.`,
      'This key is shown once; keep it:',
      '',
      `  ${token}`,
      '',
      'Try it:',
      '',
      `  curl -s -H 'Authorization: Bearer ${token}' ${url}`,
      '',
      `API docs: http://localhost:${config.port}/docs`,
      '',
    ].join('\n') + startLines({ id: companyId, hasConsoleUsers: false }, config)
  );
}

/** The demo seller created on the first start, if this installation has one, and whether anyone can sign in to its console. */
export async function findDemoSeller(ctx: AppContext): Promise<DemoSeller | undefined> {
  const seller = await findFirstSellerNamed(ctx.db, DEMO_SELLER_NAME);
  if (!seller) return undefined;
  return { id: seller.id, hasConsoleUsers: (await listUsers(ctx.db, seller.id)).length > 0 };
}

export interface DemoSeller {
  id: string;
  hasConsoleUsers: boolean;
}

/**
 * Printed at every start: where the console is, how to let its first owner in (while nobody can
 * sign in) and how to get another demo key (the first is shown once). The CLI commands carry the
 * settings that locate this server's database and address, so they work pasted as they are.
 */
export function startLines(demo: DemoSeller, config: Config): string {
  const cli = `${cliSettings(config)}npx sdapi`;
  const lines = [`Seller console: ${config.publicUrl}/console`];
  if (!demo.hasConsoleUsers) {
    lines.push(
      'Let its first owner in (prints a one-time invite link to open in a browser):',
      `  ${cli} users invite --company ${demo.id} --email you@example.com --role owner`,
    );
  }
  lines.push(
    `Demo seller ${demo.id}: lost its key? ${cli} key create --company ${demo.id} --environment sandbox`,
  );
  return `${lines.join('\n')}\n`;
}

/** The settings the CLI needs to reach what this server uses, when they are not the defaults. */
function cliSettings(config: Config): string {
  const env = process.env;
  const names = ['DATA_DIR', 'PORT', 'PUBLIC_URL', 'SDAPI_ENV_FILE'] as const;
  const parts = names.filter((name) => env[name]).map((name) => `${name}=${shellWord(env[name] ?? '')}`);
  // A PostgreSQL URL may hold a password: never printed; the CLI reads it from the same place.
  if (config.database.engine === 'sqlite' && env.DATABASE_URL)
    parts.unshift(`DATABASE_URL=${shellWord(env.DATABASE_URL)}`);
  return parts.length > 0 ? `${parts.join(' ')} ` : '';
}

const shellWord = (value: string) =>
  /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
