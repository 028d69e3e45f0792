import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { mintKey } from './modules/api-keys/api-keys.service.js';
import { findFirstSellerNamed } from './modules/identity/identity.repo.js';
import { createCompany, isEmptyInstallation } from './modules/identity/identity.service.js';

const DEMO_SELLER_NAME = 'Demo Seller';

/** On an empty installation: a demo seller with a sandbox key holding every scope, printed once. */
export async function createDemoSellerIfEmpty(
  ctx: AppContext,
): Promise<{ token: string; companyId: string } | null> {
  if (!(await isEmptyInstallation(ctx))) return null;
  const company = await createCompany(ctx, { name: DEMO_SELLER_NAME, country: 'US' });
  const key = await mintKey(ctx, { companyId: company.id, environment: 'sandbox', name: 'demo sandbox key' });
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
    ].join('\n') + demoKeyRecoveryLine({ id: companyId })
  );
}

/** The demo seller created on the first start, if this installation has one. */
export async function findDemoSeller(ctx: AppContext): Promise<{ id: string } | undefined> {
  return findFirstSellerNamed(ctx.db, DEMO_SELLER_NAME);
}

/** Printed at every start after the first: the demo key is shown once, so this is how to get another. */
export function demoKeyRecoveryLine(demo: { id: string }): string {
  return `Demo seller ${demo.id}: lost its key? npx sdapi key create --company ${demo.id} --environment sandbox\n`;
}
