import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { emit } from '../../src/modules/events/outbox.service.js';
import { makeSeller } from '../factories.js';
import { databaseEnvOf, ENGINE, useTestApp } from '../harness.js';
import { startReceiver } from '../webhook-receiver.js';

const EVENTS = 2000;
const t = useTestApp({ allowInsecureWebhooks: true });
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The real server (src/server.ts) on the test's PostgreSQL database: its job runner delivers. */
function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      ...databaseEnvOf(t.config.database),
      SDAPI_MASTER_KEY: t.config.masterKeyHex,
      SDAPI_ALLOW_INSECURE_WEBHOOKS: 'true',
      SDAPI_SEED_ON_START: 'false',
      SDAPI_TEST_CLOCK: 'false',
      PORT: '0',
      // Two processes on one machine: each operator listener on a port of its own.
      ADMIN_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server listening')) resolve(child);
    };
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
    // A start (tsx compiling src/, then migrations) is CPU-bound: two at once through PgBouncer
    // took over 20 s beside other test runs on a 2-core machine.
    setTimeout(() => reject(new Error(`server did not start: ${log}`)), 60_000);
  });
}

const waitFor = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
};

describe.runIf(ENGINE === 'postgres')('webhook delivery from two app processes (PostgreSQL)', () => {
  it(`delivers ${EVENTS} events at least once with one process SIGKILLed mid-run`, async () => {
    const seller = await makeSeller(t);
    const counts = new Map<string, number>();
    const receiver = await startReceiver((res, got) => {
      counts.set(got.json.eventId, (counts.get(got.json.eventId) ?? 0) + 1);
      setTimeout(() => res.writeHead(204).end(), 2);
    });
    try {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/webhooks',
        headers: seller.auth,
        payload: { url: receiver.url },
      });
      expect(created.statusCode).toBe(201);
      const [a, b] = await Promise.all([startServer(), startServer()]);
      const recipient = [{ companyId: seller.company.id, environment: 'sandbox' }];
      const emitted: string[] = [];
      for (let batch = 0; batch < EVENTS / 20; batch++) {
        await t.ctx.db.transaction().execute(async (trx) => {
          for (let i = 0; i < 20; i++) {
            const [id] = await emit(t.ctx, trx, recipient, 'product.updated', {
              productId: `p-${batch}-${i}`,
              updatedAt: new Date(t.ctx.clock.now()).toISOString(),
            });
            emitted.push(id!);
          }
        });
        if (batch === 30) {
          await waitFor(() => counts.size >= 300, 20_000);
          a!.kill('SIGKILL');
        }
      }
      expect(a!.signalCode).toBe('SIGKILL');
      // The killed process's leased deliveries are claimed again once the lease (25 s) passes; a
      // delivery it sent but did not record is sent again (a counted duplicate, at-least-once).
      const unsettled = () =>
        t.ctx.db
          .selectFrom('webhook_deliveries')
          .select(['event_id', 'status'])
          .where('company_id', '=', seller.company.id)
          .where('status', '<>', 'succeeded')
          .execute();
      const end = Date.now() + 70_000;
      while (Date.now() < end && (!emitted.every((id) => counts.has(id)) || (await unsettled()).length > 0))
        await new Promise((r) => setTimeout(r, 200));
      const missing = emitted.filter((id) => !counts.has(id));
      const duplicates = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
      console.info(
        `webhooks across processes: ${EVENTS} events, ${counts.size} received, ${duplicates} duplicates`,
      );
      expect(missing).toEqual([]);
      expect(await unsettled()).toEqual([]);
      expect(b!.exitCode).toBeNull();
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
