import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, refusedAddress } from './webhook-url.js';

export const DELIVERY_TIMEOUT_MS = 15_000;
export const USER_AGENT = 'SellerDistributionAPI-Webhooks/1 (+https://docs.sdapi.dev/webhooks)';
/** Bytes of a receiver's answer kept with its attempt; the rest is read and dropped. */
export const RESPONSE_BODY_BYTES = 1024;

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** Seconds from a Retry-After header (429/503), when one was given. */
  retryAfterSeconds: number | null;
  /** The first RESPONSE_BODY_BYTES of the answer, cut at a character boundary; null without an answer. */
  responseBody: string | null;
  durationMs: number;
}

/** The longest prefix of `bytes` within `max` bytes that ends on a whole UTF-8 character. */
export function utf8Prefix(bytes: Buffer, max: number): string {
  if (bytes.length <= max) return bytes.toString('utf8');
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the cut character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
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
 * POSTs one signed body. Success is a 2xx within the timeout; the response body is read (bounded
 * by the timeout) and its first RESPONSE_BODY_BYTES kept, the rest dropped. Never throws.
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
    const failed = (error: string) =>
      finish({ ok: false, statusCode: null, error, retryAfterSeconds: null, responseBody: null });
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
      // One byte past the bound tells utf8Prefix whether the cut fell inside a character.
      const kept: Buffer[] = [];
      let keptBytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (keptBytes > RESPONSE_BODY_BYTES) return;
        const part = chunk.subarray(0, RESPONSE_BODY_BYTES + 1 - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      });
      response.on('error', (err) => failed(err.message));
      response.on('end', () => {
        const statusCode = response.statusCode ?? 0;
        const ok = statusCode >= 200 && statusCode < 300;
        const retryAfterSeconds =
          statusCode === 429 || statusCode === 503
            ? retryAfterOf(response.headers['retry-after'], Date.now())
            : null;
        const responseBody = utf8Prefix(Buffer.concat(kept), RESPONSE_BODY_BYTES) || null;
        finish({ ok, statusCode, error: ok ? null : `HTTP ${statusCode}`, retryAfterSeconds, responseBody });
      });
    });
    request.end(rawBody);
  });
}
