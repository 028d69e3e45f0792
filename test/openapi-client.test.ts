import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { useTestApp } from './harness.js';

const t = useTestApp();
const DIR = 'node_modules/.cache/sdapi-openapi-client';

/** A storefront's checkout through a client generated from the served document: no casts anywhere. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({
  baseUrl: 'https://seller-api.test',
  headers: { Authorization: 'Bearer service_sk_sbx_0123456789abcdef0123' },
});

export async function checkout(orderReference: string): Promise<string[]> {
  const preview = await client.POST('/api/seller/v1/orders/preview', {
    body: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 1, countryCode: 'US' },
  });
  if (preview.error) throw new Error(preview.error.code);
  const unitPriceCents: number | null = preview.data.data.unitPriceCents;
  const order = await client.POST('/api/seller/v1/orders', {
    params: { header: { 'Idempotency-Key': orderReference } },
    body: {
      skuCode: 'SANDBOX-ALWAYS-001',
      quantity: 1,
      orderReference,
      expectedUnitPriceCents: unitPriceCents ?? 0,
      integrationOrderContext: {
        salesCountryCode: 'US',
        currencyCode: 'USD',
        salesTaxRatePercent: 0,
        salesPriceGrossMinor: 1999,
        salesChannel: 'web',
      },
    },
  });
  if (order.error) {
    const retryable: boolean = order.error.recoverable;
    if (order.response.status === 409 && order.error.code === 'NO_AVAILABLE_KEYS' && retryable) return [];
    throw new Error(order.error.code);
  }
  const page = await client.GET('/api/seller/v1/orders', { params: { query: { orderReference } } });
  if (page.error) throw new Error(page.error.code);
  const keys: string[] = order.data.data.keys;
  return keys;
}
`;

it('a client generated with openapi-typescript and openapi-fetch places an order with Idempotency-Key, with no casts', async () => {
  const reply = await t.app.inject({ method: 'GET', url: '/api/seller/v1/openapi.json' });
  const schema = astToString(await openapiTS(reply.json()));
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'schema.d.ts'), schema);
  writeFileSync(join(DIR, 'client.ts'), CLIENT);
  expect(CLIENT).not.toMatch(/\bas\b|<any>|@ts-/);
  const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022'];
  const output = (() => {
    try {
      execFileSync('node', [tsc, ...flags, '--module', 'nodenext', join(DIR, 'client.ts')], {
        encoding: 'utf8',
      });
      return '';
    } catch (error) {
      return String((error as { stdout?: string }).stdout);
    }
  })();
  expect(output).toBe('');
}, 120_000);
