import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { operatorUrlOf } from '../src/http/openapi/document.js';
import { admin, buildCatalog } from './admin.js';
import { ADMIN_TOKEN, useTestApp } from './harness.js';

const t = useTestApp();
const DIR = 'node_modules/.cache/sdapi-operator-client';

/** An operator tool's key import through a client generated from the served operator document. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function importKeys(baseUrl: string, token: string, poolId: string, keys: string[]): Promise<number> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });
  const result = await client.POST('/admin/v1/pools/{id}/keys', {
    params: { path: { id: poolId }, query: { format: 'lines' } },
    body: \`\${keys.join('\\n')}\\n\`,
    bodySerializer: (text) => text,
    headers: { 'Content-Type': 'text/plain' },
  });
  if (result.error) throw new Error(result.error.code);
  const imported: number = result.data.data.imported;
  return imported;
}
`;

/** The same call with a JSON body: the document declares text only, so this must not compile. */
const WRONG_BODY = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8081' });
await client.POST('/admin/v1/pools/{id}/keys', { params: { path: { id: 'x' } }, body: { keys: ['K'] } });
`;

function compile(file: string, emit: boolean): string {
  const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext'];
  try {
    execFileSync('node', [tsc, ...flags, ...(emit ? ['--outDir', DIR] : ['--noEmit']), join(DIR, file)], {
      encoding: 'utf8',
    });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

it('a client generated with openapi-typescript and openapi-fetch imports keys into a pool on the operator listener', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/admin/v1/openapi.json' })).json();
  expect(doc.servers).toEqual([expect.objectContaining({ url: operatorUrlOf(t.config) })]);
  expect(doc.servers[0].url).not.toBe(t.config.publicUrl);

  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'schema.d.ts'), astToString(await openapiTS(doc)));
  writeFileSync(join(DIR, 'client.mts'), CLIENT);
  writeFileSync(join(DIR, 'wrong-body.mts'), WRONG_BODY);
  expect(CLIENT).not.toMatch(/\bas\b|<any>|@ts-/);
  expect(compile('client.mts', true)).toBe('');
  expect(compile('wrong-body.mts', false)).toMatch(/wrong-body\.mts.*error TS/);

  const catalog = await buildCatalog(t);
  const poolId = (await admin(t, 'POST', '/pools', { kind: 'shared', skuId: catalog.skuId })).id as string;
  await t.adminApp.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.adminApp.server.address() as AddressInfo;
  const client = (await import(pathToFileURL(resolve(DIR, 'client.mjs')).href)) as {
    importKeys(baseUrl: string, token: string, poolId: string, keys: string[]): Promise<number>;
  };
  const imported = await client.importKeys(`http://127.0.0.1:${port}`, ADMIN_TOKEN, poolId, [
    'GEN-CLIENT-0001',
    'GEN-CLIENT-0002',
    'GEN-CLIENT-0003',
  ]);
  expect(imported).toBe(3);
  expect(await admin(t, 'GET', `/pools/${poolId}`)).toMatchObject({ availableKeys: 3 });
}, 180_000);
