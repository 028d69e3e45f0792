import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  CONSOLE_SCHEMA_FILE,
  consoleRoutes,
  generateConsoleSchema,
  successStatusOf,
} from '../../../scripts/console-generate.js';
import { ENGINE } from '../../../test/harness.js';

// The routes and their schemas do not depend on the engine: checked once, in the SQLite run.
describe.skipIf(ENGINE === 'postgres')("the console's types", () => {
  it('come from a response schema on the success status of every console route', async () => {
    const routes = (await consoleRoutes()).filter(
      (route) => route.url.startsWith(`${CONSOLE_API}/`) && route.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(60);
    const without = routes
      .filter((route) => successStatusOf(route.schema) === undefined)
      .map((route) => `${route.method} ${route.url}`);
    expect(without).toEqual([]);
  });

  it(`are up to date in ${CONSOLE_SCHEMA_FILE} (otherwise: npm run console:generate)`, async () => {
    expect(readFileSync(CONSOLE_SCHEMA_FILE, 'utf8')).toBe(await generateConsoleSchema());
  });
});
