import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, ENGINE, type TestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { TEST_CLOCK_TTL_MS } from '../../lib/clock.js';

/** Two app instances on one database, as two processes would run (finding 7). */
let first: TestApp;
let second: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'sdapi-clock-'));

beforeAll(async () => {
  first = await createTestApp(
    ENGINE === 'sqlite' ? { database: { engine: 'sqlite', path: join(dir, 'shared.sqlite') } } : {},
  );
  second = await createTestApp({ database: first.config.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  rmSync(dir, { recursive: true, force: true });
});

const serviceTime = async (app: TestApp) => {
  const health = await call(app, { method: 'GET', url: '/api/seller/v1/health' });
  expect(health.status).toBe(200);
  return Date.parse(health.body.data.time);
};

const DAY_MS = 86_400_000;

describe(`the shared test clock (${ENGINE}: two app instances, one database)`, () => {
  it('POST /admin/v1/clock on one instance moves the other, and answers only once the other sees it', async () => {
    // Both instances have read (and cached) the current offset.
    const start = await serviceTime(second);
    expect(Math.abs((await serviceTime(first)) - start)).toBeLessThan(5_000);

    const askedAt = Date.now();
    const moved = await call(first, {
      method: 'POST',
      url: '/admin/v1/clock',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { advanceSeconds: 86_400 },
    });
    expect(moved.status).toBe(200);
    expect(Date.now() - askedAt).toBeGreaterThanOrEqual(TEST_CLOCK_TTL_MS - 5);
    expect(Date.parse(moved.body.data.now)).toBeGreaterThanOrEqual(start + DAY_MS);

    // The very next request on the other instance already runs a day later.
    expect(await serviceTime(second)).toBeGreaterThanOrEqual(start + DAY_MS);
  });

  it('an in-process advance (tests) is written through to the shared offset', async () => {
    const before = await serviceTime(second);
    first.ctx.testClock!.advance(3_600);
    await first.ctx.testClock!.flush();
    await new Promise((resolve) => setTimeout(resolve, TEST_CLOCK_TTL_MS));
    expect(await serviceTime(second)).toBeGreaterThanOrEqual(before + 3_600_000);
  });

  it('never moves back: concurrent advances on both instances add up', async () => {
    const before = await serviceTime(first);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const results = await Promise.all(
      [first, second].map((app) =>
        call(app, {
          method: 'POST',
          url: '/admin/v1/clock',
          headers: admin,
          payload: { advanceSeconds: 600 },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    for (const app of [first, second]) {
      expect(await serviceTime(app)).toBeGreaterThanOrEqual(before + 1_200_000);
    }
  });
});
