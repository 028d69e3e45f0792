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
    setupFiles: ['test/each-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's loaded modules: loading the service once per worker instead
    // of once per file is most of what a small file costs. What a process keeps for its life
    // starts over in test/each-file.ts; a file that replaces a module with vi.mock loads the
    // service afresh itself (src/modules/checkout/orders/write-paths.test.ts).
    isolate: false,
  },
});
