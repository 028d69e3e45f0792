import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The SDK and the examples import it as integrators do; tests run its sources.
  resolve: { alias: { '@sdapi/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) } },
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'sdk/test/**/*.test.ts',
      'cli/test/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
