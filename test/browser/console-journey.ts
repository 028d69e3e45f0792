import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { ADMIN_TOKEN, type CompiledServer, IP_PEPPER, MASTER_KEY } from '../compiled-server.js';

/**
 * What the console's browser journey needs around the browser: the operator's CLI on the
 * server's own database, the operator API's test clock, the seller API with the key the
 * browser created. The browser itself and its page checks are in ./browser.ts.
 */
const run = promisify(execFile);

/** The environment of `sdapi` as the operator runs it beside the server: same DATABASE_URL and DATA_DIR. */
export const operatorEnv = (server: CompiledServer, publicUrl: string) => ({
  PATH: process.env.PATH ?? '',
  DATA_DIR: server.dataDir,
  DATABASE_URL: `sqlite:${join(server.dataDir, 'sdapi.sqlite')}`,
  SDAPI_MASTER_KEY: MASTER_KEY,
  SDAPI_IP_PEPPER: IP_PEPPER,
  PUBLIC_URL: publicUrl,
});

/** `sdapi ... --json` as the operator runs it beside the server. */
export async function operatorCli(server: CompiledServer, publicUrl: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['bin/sdapi.js', ...args, '--json'], {
    env: { ...operatorEnv(server, publicUrl), LOG_LEVEL: 'warn' },
  });
  return JSON.parse(stdout);
}

/** An operator API call (ADMIN_PORT, the operator token); its JSON body. */
export async function operatorApi(server: CompiledServer, method: string, path: string, body: unknown) {
  const reply = await fetch(`${server.admin}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(reply.ok, `${method} ${path}: ${reply.status}`).toBe(true);
  return reply.json();
}

/**
 * POST /admin/v1/clock (the server runs with SDAPI_TEST_CLOCK=1): moves the service clock and
 * answers once every process sees it. Returns the service's offset from this machine's clock.
 */
export async function advanceServiceClock(server: CompiledServer, seconds: number): Promise<number> {
  const { data } = (await operatorApi(server, 'POST', '/clock', { advanceSeconds: seconds })) as {
    data: { now: string };
  };
  return Date.parse(data.now) - Date.now();
}

/** The seller API as an integration calls it, with a key from the console. */
export function sellerApi(sellerUrl: string, key: string) {
  return (method: string, path: string, body?: unknown) =>
    fetch(`${sellerUrl}/api/seller/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
}

let orders = 0;

/** The documented createOrder body (the OpenAPI example) with a fresh order reference. */
export const sandboxOrder = (skuCode = 'SANDBOX-ALWAYS-001') => ({
  skuCode,
  quantity: 1,
  orderReference: `console-journey-${Date.now().toString(36)}-${++orders}`,
  expectedUnitPriceCents: 1999,
  integrationOrderContext: {
    salesCountryCode: 'US',
    currencyCode: 'USD',
    salesTaxRatePercent: 0,
    salesPriceGrossMinor: 2499,
    salesChannel: 'web',
  },
});

/** Polls until `ready` holds (the server's worker runs on its own time). */
export async function until(what: string, ready: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const started = Date.now();
  while (!(await ready())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
