import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdapiClient } from '@sdapi/sdk';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/compiled-server.js';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';
import { Journal } from './src/journal.js';
import { runStorefront } from './src/storefront.js';

describe.skipIf(SANDBOX_SERVICE_SKIPPED)('the sample storefront, end to end against the sandbox', () => {
  const service = useSandboxService();

  it('browses, holds, charges, orders, hears order.fulfilled and recovers keys after a crash', async () => {
    const journalFile = join(mkdtempSync(join(tmpdir(), 'storefront-test-')), 'journal.json');
    const lines: string[] = [];
    const result = await runStorefront({ ...service, journalFile, log: (line) => lines.push(line) });

    expect(result.sale.keys).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('hold: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('attest: '))).toBe(true);
    expect(result.fulfilled).toMatchObject({
      eventType: 'order.fulfilled',
      data: { orderReference: result.sale.orderReference, quantity: 1, pulled: 1 },
    });

    // The crashed checkout's keys came back through recover-keys, and are the order's own keys.
    expect(result.recovered).toHaveLength(1);
    const [recovered] = result.recovered;
    expect(recovered?.keys).toHaveLength(2);
    const api = createSdapiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const orders = await api.GET('/api/seller/v1/orders', {
      params: { query: { limit: 10, orderReference: recovered!.orderReference } },
    });
    expect(orders.data.map((o) => o.id)).toEqual([recovered?.orderId]);
    expect(orders.data[0]?.pulled).toBe(2);

    // The buyer's page captured the attestation; the order spent it on its reference.
    const attestation = await api.GET('/api/seller/v1/geo-attestations/{attestId}', {
      params: { path: { attestId: result.sale.attestId } },
    });
    expect(attestation.data).toMatchObject({ status: 'spent', orderReference: result.sale.orderReference });

    expect(new Journal(journalFile).pending()).toEqual([]);
    expect(result.payments.map((p) => p.state)).toEqual(['captured', 'captured']);
  });
});

/** `npm run storefront` as the README prints it, with the given environment. */
function npmRunStorefront(env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'storefront'],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(SANDBOX_SERVICE_SKIPPED)('npm run storefront, the README command, on any port', () => {
  const service = useSandboxService();

  it('sells against a service on a random port named by SDAPI_BASE_URL', async () => {
    expect(service.baseUrl).not.toContain(':8080');
    const run = await npmRunStorefront({ SDAPI_BASE_URL: service.baseUrl, SDAPI_API_KEY: service.apiKey });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^done: sold 1 key\(s\), recovered 2 after the crash$/m);
  }, 150_000);

  it('says in one line, without a stack trace, when no service answers at the address', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const run = await npmRunStorefront({ SDAPI_BASE_URL: nowhere, SDAPI_API_KEY: service.apiKey });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `storefront: no service answers at ${nowhere}: start it (npm start) or set SDAPI_BASE_URL to its address, e.g. http://localhost:3000 for PORT=3000\n`,
    );
  }, 60_000);
});
