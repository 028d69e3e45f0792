import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { emit } from '../src/modules/events/outbox.service.js';
import {
  DEFAULT_LIMITS,
  type DeliveryLimits,
  DeliveryWorker,
} from '../src/modules/webhooks/delivery.service.js';
import { publishDue } from '../src/modules/webhooks/publisher.service.js';
import type { TestApp } from './harness.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    eventId: string;
    eventType: string;
    eventVersion: number;
    createdAt: string;
    data: Record<string, unknown>;
  };
}

/** A real HTTP receiver on loopback; `respond` decides each answer (default 204). */
export async function startReceiver(
  respond: (res: ServerResponse, got: Received) => void = (res) => res.writeHead(204).end(),
) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const got = { headers: req.headers, body, json: JSON.parse(body) };
      received.push(got);
      respond(res, got);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    ofType: (type: string) => received.filter((r) => r.json.eventType === type),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Publishes and delivers until nothing is due on the service clock (the job runner's work, inline). */
export async function deliverAll(t: TestApp, limits: DeliveryLimits = DEFAULT_LIMITS): Promise<void> {
  const worker = new DeliveryWorker(t.ctx, limits);
  for (;;) {
    const published = await publishDue(t.ctx);
    const started = await worker.round();
    await worker.drain();
    if (published === 0 && started === 0) return;
  }
}

/** `startReceiver` for one test file: every receiver it starts is closed after each test. */
export function useReceivers() {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const r of open.splice(0)) await r.close();
  });
  return async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    open.push(r);
    return r;
  };
}

/**
 * A keys.pulled of a company's sandbox, as the pull path writes it: a real event for every
 * endpoint of the company (test sends are one endpoint's own and do not count toward the breaker).
 */
export async function companyEvent(t: TestApp, companyId: string, orderReference = 'ord-1'): Promise<string> {
  const tenant = { companyId, environment: 'sandbox' as const };
  const [eventId] = await t.ctx.db
    .transaction()
    .execute((trx) =>
      emit(t.ctx, trx, [tenant], 'keys.pulled', { orderReference, skuCode: 'SKU', pulled: 1 }),
    );
  return eventId!;
}
