import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The SDK as a seller installs it outside this repository: `npm pack` of the workspace (its
 * prepack compiles it), the tarball installed into a fresh project with npm working offline
 * (the tarball and tarballs of its two dependencies: nothing from a registry),
 * a typed program compiled against the installed types, then run against a real service.
 */
describe.skipIf(SANDBOX_SERVICE_SKIPPED)('the packed SDK (npm pack), installed into another project', () => {
  const service = useSandboxService();

  it('installs from its tarball alone, type-checks a call and returns the success body', async () => {
    const work = mkdtempSync(join(tmpdir(), 'sdapi-sdk-pack-'));
    await run('npm', ['pack', '--workspace', '@sdapi/sdk', '--pack-destination', work, '--silent'], {
      cwd: ROOT,
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toMatch(/^sdapi-sdk-\d+\.\d+\.\d+\.tgz$/);
    // Its dependencies as local tarballs too, packed from the copies installed here.
    const dependencies = join(work, 'deps');
    mkdirSync(dependencies);
    for (const name of ['openapi-fetch', 'openapi-typescript-helpers']) {
      await run(
        'npm',
        ['pack', join(ROOT, 'node_modules', name), '--pack-destination', dependencies, '--silent'],
        {
          cwd: work,
        },
      );
    }
    const local = [
      join(work, tarball ?? ''),
      ...readdirSync(dependencies).map((name) => join(dependencies, name)),
    ];

    const project = join(work, 'shop');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...local], {
      cwd: project,
    });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          outDir: 'out',
          typeRoots: [join(ROOT, 'node_modules/@types')],
          types: ['node'],
        },
        include: ['main.ts'],
      }),
    );
    writeFileSync(
      join(project, 'main.ts'),
      `import { createSdapiClient } from '@sdapi/sdk';

const api = createSdapiClient({ baseUrl: process.env.SDAPI_BASE_URL!, apiKey: process.env.SDAPI_API_KEY! });
// The call resolves to the success body, the service's own { data } envelope.
const { data: me } = await api.GET('/api/seller/v1/whoami');
const environment: 'sandbox' | 'production' = me.environment;
// Never called: a path the service does not have must be a type error.
// @ts-expect-error
export const typeOnly = () => api.GET('/api/seller/v1/no-such-path');
console.log(JSON.stringify({ companyId: me.companyId, environment }));
`,
    );
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: project });
    const { stdout } = await run(process.execPath, ['out/main.js'], {
      cwd: project,
      env: { ...process.env, SDAPI_BASE_URL: service.baseUrl, SDAPI_API_KEY: service.apiKey },
    });
    expect(JSON.parse(stdout)).toEqual({ companyId: expect.any(String), environment: 'sandbox' });
  }, 180_000);
});
