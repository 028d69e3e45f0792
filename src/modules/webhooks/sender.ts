import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, refusedAddress } from './webhook-url.js';

export const DELIVERY_TIMEOUT_MS = 15_000;
export const USER_AGENT = 'SellerDistributionAPI-Webhooks/1 (+https://docs.sdapi.dev/webhooks)';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** Seconds from a Retry-After header (429/503), when one was given. */
  retryAfterSeconds: number | null;
  durationMs: number;
}

/**
 * Agents per mode: keep-alive connections to receivers, each opened through the guarded lookup
 * (a reused connection goes to an address that passed when it was opened).
 */
function agentsFor(insecure: boolean) {
  const lookup = guardedLookup(insecure) as unknown as http.AgentOptions['lookup'];
  const options = { keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions;
  return { http: new http.Agent(options), https: new https.Agent(options) };
}
const agents = { strict: agentsFor(false), insecure: agentsFor(true) };

function retryAfterOf(value: string | string[] | undefined, now: number): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * POSTs one signed body. Success is a 2xx within the timeout; the response body is read and
 * dropped (bounded by the timeout). Never throws.
 */
export function sendWebhook(
  url: string,
  rawBody: string,
  headers: Record<string, string>,
  insecure: boolean,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const failed = (error: string) => finish({ ok: false, statusCode: null, error, retryAfterSeconds: null });
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const refused = refusedAddress(host, insecure);
      if (refused) return failed(`refused: ${refused}`);
    }
    const mode = insecure ? agents.insecure : agents.strict;
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      agent: target.protocol === 'https:' ? mode.https : mode.http,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(rawBody),
        'user-agent': USER_AGENT,
      },
    });
    const timer = setTimeout(() => {
      failed(`timeout after ${timeoutMs} ms`);
      request.destroy();
    }, timeoutMs);
    request.on('error', (err) => failed(err.message));
    request.on('response', (response) => {
      response.on('data', () => {});
      response.on('error', (err) => failed(err.message));
      response.on('end', () => {
        const statusCode = response.statusCode ?? 0;
        const ok = statusCode >= 200 && statusCode < 300;
        const retryAfterSeconds =
          statusCode === 429 || statusCode === 503
            ? retryAfterOf(response.headers['retry-after'], Date.now())
            : null;
        finish({ ok, statusCode, error: ok ? null : `HTTP ${statusCode}`, retryAfterSeconds });
      });
    });
    request.end(rawBody);
  });
}
