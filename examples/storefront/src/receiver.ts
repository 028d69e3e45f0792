import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@sdapi/sdk';

/**
 * The shop's webhook receiver on loopback: verifies each delivery's signature on the raw body
 * before trusting it, dedupes on eventId (deliveries are at least once), answers 2xx fast.
 */
export async function startReceiver(port = 0) {
  const events = new Map<string, WebhookEvent>();
  const waiters: { match: (e: WebhookEvent) => boolean; resolve: (e: WebhookEvent) => void }[] = [];
  let secret: string | undefined;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Not configured yet: 503 makes the service retry later.
      if (!secret) return void res.writeHead(503).end();
      try {
        const event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
        if (!events.has(event.eventId)) {
          events.set(event.eventId, event);
          for (const waiter of waiters.filter((w) => w.match(event))) waiter.resolve(event);
        }
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/sdapi`,
    events,
    useSecret(value: string) {
      secret = value;
    },
    /** The first verified event that matches, waiting up to `timeoutMs`. */
    waitFor(match: (e: WebhookEvent) => boolean, timeoutMs = 30_000): Promise<WebhookEvent> {
      const seen = [...events.values()].find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching webhook in time')), timeoutMs);
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
